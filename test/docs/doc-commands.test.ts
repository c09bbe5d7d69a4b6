// Issue 22: every command README.md and docs/*.md show in a code block runs in this checkout, as written where it
// can be, so docs and code cannot drift. `rules` (command-rules.ts) is the one reviewed table of exceptions, with reasons;
// a command no rule matches is run as written and must exit 0 and print what the docs show under it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Context, helpForm, mergedInvocation, type RunRule, root, ruleFor, rules, type ServerKind, scratch } from './command-rules.ts';
import { type DocCommand, documentedCommands, type ProseCommand } from './extract-commands.ts';
import { runShell } from './run-shell.ts';
import { outputProblems } from './shown-output.ts';
import { freePort, type RunningServer, startServer } from './start-server.ts';

const where = (command: DocCommand | ProseCommand) => `${command.file}:${command.line}`;

// The project's offline settings (.ci/run), and no test-runner context: a nested `node --test` reports normally.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  XDG_CONFIG_HOME: join(root, '.cache', 'xdg'),
  SCHEMAVAL_DOC_COMMANDS: '1',
};
delete env.NODE_TEST_CONTEXT;

const { blocks: commands, prose } = documentedCommands(root);
const context: Context = { fixtures: '', closedPort: 0, ports: { demo: 0, edge: 0 } };
const servers = new Map<ServerKind, RunningServer>();

/** Runs one command by its rule and checks exit, shown output and the rule's own check. */
async function runCommand(command: DocCommand, rule: RunRule | undefined): Promise<void> {
  const rewrite = (text: string) => rule?.as?.(text, context) ?? text;
  const text = rewrite(command.text);
  for (const path of rule?.clear ?? []) rmSync(join(root, path), { recursive: true, force: true });
  // Page builds (npm start, npm run edge, deploys) may overlap: scripts/build-page.mjs writes each file atomically.
  const result = await runShell(text, { cwd: root, env: { ...env, ...rule?.env }, timeoutMs: rule?.timeoutMs ?? 60_000 });
  const said = `$ ${text}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
  assert.equal(result.timedOut, false, `stopped at its timeout:\n${said}`);
  assert.equal(result.code, rule?.exit ?? 0, `exit ${result.code ?? result.signal}, want ${rule?.exit ?? 0}:\n${said}`);
  assert.deepEqual(outputProblems(command.shown.map(rewrite), result.stdout, result.stderr), [], `output differs from the docs:\n${said}`);
  rule?.check?.(result, text);
}

/** A help form must end by itself, exit 0 and print a usage: it runs nothing else. */
async function runHelp(text: string): Promise<void> {
  const result = await runShell(text, { cwd: root, env, timeoutMs: 30_000 });
  const said = `$ ${text}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
  assert.equal(result.timedOut, false, `still running after 30 s (not a help):\n${said}`);
  assert.equal(result.code, 0, `exit ${result.code ?? result.signal}:\n${said}`);
  assert.match(result.stdout, /usage/i, `prints no usage:\n${said}`);
}

if (process.env.SCHEMAVAL_DOC_COMMANDS === '1') {
  // A documented command ran this test again (`npm test -- --help` running the suite): fail, do not recurse.
  it('is not run by one of the commands it runs', () => assert.fail('a documented command ran the doc-command test itself'));
} else {
  describe('commands in README.md and docs/*.md', { concurrency: 2 }, () => {
    before(async () => {
      rmSync(join(root, scratch), { recursive: true, force: true });
      mkdirSync(join(root, scratch, 'files'), { recursive: true });
      writeFileSync(join(root, scratch, 'slow.js'), 'setInterval(() => {}, 60_000); // never answers on stdout\n');
      writeFileSync(join(root, scratch, 'schema.json'), '{\n  "type": "object",\n  "properties": {"a": }\n}\n');
      writeFileSync(join(root, scratch, 'value.json'), '{}\n');
      writeFileSync(join(root, scratch, 'call.json'), '{"city":"Oslo","days":3}\n');
      context.fixtures = mkdtempSync(join(tmpdir(), 'schemaval-doc-'));
      writeFileSync(join(context.fixtures, 'server.js'), "require('zod');\n");
      context.closedPort = await freePort();
      context.ports.demo = await freePort();
      context.ports.edge = await freePort();
    });
    after(async () => {
      for (const server of servers.values()) await server.stop();
      rmSync(context.fixtures, { recursive: true, force: true });
    });

    it('finds the commands and the output the docs show', () => {
      const lint = commands.find((command) => command.file === 'README.md' && command.text === 'npx schemaval lint examples/tools.json');
      assert.ok(lint, 'README.md shows npx schemaval lint examples/tools.json');
      assert.deepEqual(lint.shown, ['…', '6 tools: 3 accepted, 3 refused, 1 warning']);
      assert.ok(commands.some((command) => command.file.startsWith('docs/') && command.text.startsWith('curl ')));
    });

    it('matches each command to at most one rule, and each rule to a command', (t) => {
      for (const command of commands) {
        const matching = rules.filter((rule) => rule.match.test(command.text));
        assert.ok(matching.length <= 1, `${where(command)} ${command.text}: ${matching.length} rules match`);
      }
      for (const rule of rules) {
        assert.ok(rule.reason.trim() !== '', `${rule.match} has a reason`);
        assert.ok(
          commands.some((command) => rule.match.test(command.text)),
          `${rule.match} matches no documented command: remove it`,
        );
      }
      for (const command of commands) {
        const rule = ruleFor(command);
        if (rule?.how === 'not-here') t.diagnostic(`not run here: ${where(command)} ${command.text} (${rule.reason})`);
      }
    });

    it('names only npm scripts that exist, in prose too', () => {
      const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
      for (const { file, line, text } of [...prose, ...commands]) {
        const name = /\bnpm (?:run (\S+)|(start|test)\b)/.exec(text);
        const script = name?.[1] ?? name?.[2];
        if (script !== undefined) assert.ok(script in scripts, `${file}:${line}: ${text}: package.json has no "${script}" script`);
      }
    });

    it('names only schemaval commands and flags that exist, in prose too', async () => {
      const words = new Set<string>();
      for (const { text } of prose) {
        const word = /^(?:npx )?schemaval ((?:--)?[a-z][\w-]*)(?:\s|$)/.exec(text)?.[1];
        if (word !== undefined) words.add(word);
      }
      assert.ok(words.has('lint') && words.has('validate'), `prose names lint and validate: ${[...words].join(', ')}`);
      // `help` takes a command; every other word is a command with its own --help, or a top-level flag.
      const runs = [...words].map((word) => (word === 'help' ? 'help lint' : word.startsWith('--') ? word : `${word} --help`));
      const results = await Promise.all(runs.map((args) => runShell(`npx schemaval ${args}`, { cwd: root, env, timeoutMs: 60_000 })));
      for (const [index, result] of results.entries()) {
        assert.equal(result.code, 0, `npx schemaval ${runs[index]}: exit ${result.code}\n${result.stderr}`);
      }
    });

    for (const command of commands) {
      const rule = ruleFor(command);
      if (rule?.how === 'run' && rule.server !== undefined) continue;
      if (rule?.how === 'serve' || rule?.how === 'not-here') continue;
      const name = `${where(command)} ${command.text}`;
      if (rule?.how === 'help') {
        it(`${name} → ${helpForm(command.text)}`, { timeout: 60_000 }, () => runHelp(helpForm(command.text)));
        continue;
      }
      it(name, { timeout: (rule?.timeoutMs ?? 60_000) + 30_000 }, () => runCommand(command, rule));
    }

    // Prose names a script without showing a run of it: its --help must answer (issue 22: `--help` on every script),
    // unless a code block already asks it.
    const asked = new Set(commands.map((command) => (ruleFor(command)?.how === 'help' ? helpForm(command.text) : command.text)));
    const named = new Map<string, ProseCommand>();
    for (const command of prose) {
      const script = /^npm (?:run ([\w:-]+)|(start|test))/.exec(command.text);
      const text = script === null ? undefined : helpForm(script[1] === undefined ? `npm ${script[2]}` : `npm run ${script[1]}`);
      if (text !== undefined && !asked.has(text) && !named.has(text)) named.set(text, command);
    }
    for (const [text, command] of named) {
      it(`${where(command)} names \`${command.text}\` → ${text}`, { timeout: 60_000 }, () => runHelp(text));
    }

    for (const kind of ['demo', 'edge'] as const) {
      const invocations = commands.filter((command) => {
        const rule = ruleFor(command);
        return rule?.how === 'serve' && rule.server === kind;
      });
      const clients = commands.filter((command) => {
        const rule = ruleFor(command);
        return rule?.how === 'run' && rule.server === kind;
      });
      if (invocations.length === 0) {
        if (clients.length > 0) it(`${kind}: its server is documented`, () => assert.fail(`${clients.map(where).join(', ')} need it`));
        continue;
      }
      describe(`${invocations[0]?.text.split(' -- ')[0]}, as ${invocations.map(where).join(', ')} show it`, () => {
        let server: RunningServer | undefined;
        before(async () => {
          const text = mergedInvocation(
            invocations.map((command) => command.text),
            context.ports[kind],
          );
          server = await startServer(text, context.ports[kind], { cwd: root, env, timeoutMs: 150_000 });
          servers.set(kind, server);
        });
        after(async () => {
          await server?.stop();
          servers.delete(kind);
        });

        it('prints its URL and answers /healthz with ok', async () => {
          assert.ok(server, 'started');
          assert.ok(server.output().includes(server.origin), `printed ${server.origin}`);
          const health = (await (await fetch(`${server.origin}/healthz`)).json()) as { ok?: unknown };
          assert.equal(health.ok, true);
          if (kind === 'demo') {
            const page = await fetch(`${server.origin}/`);
            assert.equal(page.status, 200);
            assert.match(await page.text(), /<html/i, 'serves the demo page');
          }
        });

        for (const command of clients) {
          const rule = ruleFor(command) as RunRule;
          it(`${where(command)} ${command.text}`, { timeout: (rule.timeoutMs ?? 60_000) + 30_000 }, () => runCommand(command, rule));
        }
      });
    }
  });
}
