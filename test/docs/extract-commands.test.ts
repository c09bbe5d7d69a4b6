// The doc-command test reads commands out of Markdown: these pin down what counts as a command and as its output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractCommands, extractProseCommands, splitSteps, stripComment } from './extract-commands.ts';
import { outputProblems } from './shown-output.ts';

const fence = '```';

describe('extractCommands', () => {
  it('reads console prompts with the output under them, to a blank line, and drops their comments', () => {
    const markdown = [
      'Intro `npm run tour`.',
      `${fence}console`,
      '$ npx schemaval lint examples/tools.json   # verdict per tool',
      '…',
      '6 tools: 3 accepted, 3 refused, 1 warning',
      '',
      '$ echo \'{"a":1}\' | npx schemaval validate --schema s.json',
      '$.a: got 1, want a string',
      fence,
    ].join('\n');
    assert.deepEqual(extractCommands('x.md', markdown), [
      { file: 'x.md', line: 3, text: 'npx schemaval lint examples/tools.json', shown: ['…', '6 tools: 3 accepted, 3 refused, 1 warning'] },
      { file: 'x.md', line: 7, text: 'echo \'{"a":1}\' | npx schemaval validate --schema s.json', shown: ['$.a: got 1, want a string'] },
    ]);
  });

  it('reads every bash line, joins continuations, splits && steps and takes a comment line under a command as its output', () => {
    const markdown = [
      `${fence}bash`,
      'npm install && npm start    # installs, then serves',
      '                            # (a comment that goes on)',
      'npm run edge -- --port 8787 \\',
      '  --var A:b',
      "curl -s 'http://127.0.0.1:8787/#x' -d '{}'",
      '# {"ok":true}',
      fence,
    ].join('\n');
    assert.deepEqual(
      extractCommands('x.md', markdown).map(({ line, text, shown }) => ({ line, text, shown })),
      [
        { line: 2, text: 'npm install', shown: [] },
        { line: 2, text: 'npm start', shown: [] },
        { line: 4, text: 'npm run edge -- --port 8787 --var A:b', shown: [] },
        { line: 6, text: "curl -s 'http://127.0.0.1:8787/#x' -d '{}'", shown: ['{"ok":true}'] },
      ],
    );
  });

  it("reads a workflow's run: steps, one-line and block, and $ lines of an untagged block, but no ts or json", () => {
    const markdown = [
      `${fence}yaml`,
      '      - run: npm ci',
      '      - name: Lint',
      '        run: |',
      '          npx schemaval lint tools.json',
      '        with:',
      fence,
      fence,
      '$ npx schemaval --version',
      'schemaval 0.1.0',
      fence,
      `${fence}ts`,
      'npm start',
      fence,
    ].join('\n');
    assert.deepEqual(
      extractCommands('x.md', markdown).map(({ text, shown }) => ({ text, shown })),
      [
        { text: 'npm ci', shown: [] },
        { text: 'npx schemaval lint tools.json', shown: [] },
        { text: 'npx schemaval --version', shown: ['schemaval 0.1.0'] },
      ],
    );
  });

  it('finds commands named inline in prose, not in code blocks', () => {
    const markdown = [
      'Run `npm run bench`, then `schemaval lint --url URL`; not `node x.js`, `schemaval edge: ready` or `npm run`.',
      fence,
      '`npm test`',
      fence,
    ].join('\n');
    assert.deepEqual(
      extractProseCommands('x.md', markdown).map(({ line, text }) => ({ line, text })),
      [
        { line: 1, text: 'npm run bench' },
        { line: 1, text: 'schemaval lint --url URL' },
      ],
    );
  });

  it('cuts comments only outside quotes and after a blank', () => {
    assert.deepEqual(stripComment(`curl 'a#b' "c # d" e#f # note`), { code: `curl 'a#b' "c # d" e#f`, comment: true });
    assert.deepEqual(splitSteps(`a && b "x && y" && c`), ['a', 'b "x && y"', 'c']);
  });
});

describe('outputProblems', () => {
  it('accepts the shown lines in order per stream, … for lines or text left out', () => {
    assert.deepEqual(outputProblems(['…', 'sum: 2'], 'a\nb\nsum: 2\n', ''), []);
    assert.deepEqual(outputProblems(['{"id":"2ad7…480"}', 'oops'], '{"id":"2ad7c4480"}\n', 'oops\n'), []);
    assert.deepEqual(outputProblems([], 'anything\n', 'at all\n'), []);
  });

  it('names a missing line, and an extra one when the docs show the whole output', () => {
    assert.deepEqual(outputProblems(['one', 'two'], 'two\none\n', ''), ['missing: two', 'not shown in the docs: two']);
    assert.deepEqual(outputProblems(['one'], 'one\n', 'warning\n'), ['not shown in the docs: warning']);
  });
});
