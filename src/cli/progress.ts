import type { CliIo } from './cli-io.ts';

/** What `lint` and `validate --url` say on standard error while they work: never on standard output, and only when asked for. */
export interface Progress {
  readonly connecting: (where: string) => void;
  readonly page: (page: number, tools: number) => void;
  readonly listed: (tools: number) => void;
  readonly linted: (done: number, of: number) => void;
}

/**
 * Progress lines (`schemaval: page 2: 7 tools so far (1.2 s)`) when standard error is a terminal (for a server:
 * `remote`) or `--progress` asks (`asked`); otherwise nothing, so a CI log or a captured stderr holds only errors.
 */
export function progressOf(io: CliIo, { asked, remote }: { readonly asked: boolean; readonly remote: boolean }): Progress {
  const quiet = () => {};
  // A server can be slow to list; a file is read at once, so its progress is only shown when asked for.
  const onTerminal = io.stderrIsTty === true && remote;
  if (!(asked || onTerminal)) return { connecting: quiet, page: quiet, listed: quiet, linted: quiet };
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const say = (text: string) => io.stderr(`schemaval: ${text} (${elapsed()})\n`);
  const noun = (n: number) => `${n} tool${n === 1 ? '' : 's'}`;
  let pages = 0;
  return {
    connecting: (where) => say(`connecting to ${where}`),
    page: (page, tools) => {
      pages = page;
      say(`page ${page}: ${noun(tools)} so far`);
    },
    listed: (tools) => say(pages === 0 ? `read ${noun(tools)}` : `listed ${noun(tools)} in ${pages} page${pages === 1 ? '' : 's'}`),
    linted: (done, of) => say(`linted ${done} of ${noun(of)}`),
  };
}
