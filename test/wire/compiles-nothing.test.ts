// Which requests compile nothing (src/wire/compiles-nothing.ts): the host polls for their replies and the page's
// worker serves them without the linear-time matcher, so a schema must never be taken for a fingerprint.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkerRequest } from '../../src/protocol/index.ts';
import { compilesNothing } from '../../src/wire/index.ts';

const print = 'sha256:0f';
const schema = { type: 'string', pattern: '^a' };

describe('compilesNothing', () => {
  const table: ReadonlyArray<readonly [string, WorkerRequest, boolean]> = [
    ['a tool call', { op: 'validateArguments', fingerprint: print, instance: {} }, true],
    ['a structured result', { op: 'validateStructured', fingerprint: print, instance: {} }, true],
    ['stats', { op: 'stats' }, true],
    ['validate by fingerprint', { op: 'validate', schema: print, instance: 'a' }, true],
    ['validateJson by fingerprint', { op: 'validateJson', schema: print, text: '"a"' }, true],
    ['validate with a schema object', { op: 'validate', schema, instance: 'a' }, false],
    ['validate with a boolean schema', { op: 'validate', schema: true, instance: 'a' }, false],
    ['validate with a schema sent as text', { op: 'validate', schema: JSON.stringify(schema), instance: 'a', encoded: ['schema'] }, false],
    [
      'validateJson with a schema sent as text',
      { op: 'validateJson', schema: JSON.stringify(schema), text: '"a"', encoded: ['schema'] },
      false,
    ],
    ['validate by fingerprint, instance as text', { op: 'validate', schema: print, instance: '1e400', encoded: ['instance'] }, true],
    ['compile', { op: 'compile', schema }, false],
    ['compileTools', { op: 'compileTools', tools: [] }, false],
    ['an elicitation', { op: 'validateElicitation', schema, instance: {} }, false],
  ];
  for (const [name, request, expected] of table) {
    it(`${name}: ${expected ? 'compiles nothing' : 'may compile'}`, () => {
      assert.equal(compilesNothing(request), expected);
    });
  }
});
