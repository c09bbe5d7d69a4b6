// The npm scripts' arguments, read the same way everywhere: `--help` (or -h) prints the script's usage and exits 0;
// an unknown option, a missing value or a stray argument is one line of ours and exit 2, never Node's
// ERR_PARSE_ARGS_* stack trace. Mistakes are found from parseArgs' tokens, not by reading its error messages.
import { parseArgs } from 'node:util';

const helpOption = { help: { type: 'boolean', short: 'h' } };

/**
 * What `args` ask of a script: `{ kind: 'help' }`, `{ kind: 'error', message }` or `{ kind: 'run', values,
 * positionals }`. `--help` wins over any mistake beside it.
 */
export function readScriptArgs(args, { options, allowPositionals = false }) {
  const all = { ...options, ...helpOption };
  const { tokens } = parseArgs({ args, options: all, strict: false, allowPositionals: true, tokens: true });
  if (tokens.some((token) => token.kind === 'option' && token.name === 'help')) return { kind: 'help' };
  for (const token of tokens) {
    if (token.kind === 'positional' && !allowPositionals)
      return { kind: 'error', message: `unexpected argument ${JSON.stringify(token.value)}` };
    if (token.kind !== 'option') continue;
    const option = all[token.name];
    if (option === undefined) return { kind: 'error', message: `unknown option ${token.rawName}` };
    // `--port --host x` would take "--host" as the port: a value that looks like an option must be written --port=…
    const missing = token.value === undefined || (!token.inlineValue && token.value.startsWith('-'));
    if (option.type === 'string' && missing) return { kind: 'error', message: `${token.rawName} wants a value` };
    if (option.type === 'boolean' && token.value !== undefined) return { kind: 'error', message: `${token.rawName} takes no value` };
  }
  const { values, positionals } = parseArgs({ args, options: all, strict: true, allowPositionals });
  return { kind: 'run', values: { ...values }, positionals }; // a plain object: parseArgs' has no prototype
}

/**
 * Reads process.argv for the script run as `command` (e.g. "npm start"): prints `usage` and exits 0 on --help,
 * prints one line and exits 2 on a mistake, and otherwise returns the values and positionals.
 */
export function scriptArgs({ command, usage, options, allowPositionals = false, args = process.argv.slice(2) }) {
  const read = readScriptArgs(args, { options, allowPositionals });
  if (read.kind === 'help') {
    process.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
    process.exit(0);
  }
  if (read.kind === 'error') {
    // npm passes a script's own options after `--`; node takes them directly.
    const help = command.startsWith('npm ') ? `${command} -- --help` : `${command} --help`;
    console.error(`${command}: ${read.message} (${help} lists the options)`);
    process.exit(2);
  }
  return { values: read.values, positionals: read.positionals };
}
