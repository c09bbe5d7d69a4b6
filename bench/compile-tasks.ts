// What it costs to get a validator for a schema: a cold compile per library, and the engine's cache hits.
import { Validator } from '@cfworker/json-schema';
import { compileSchema, type Engine, fingerprint } from '../src/engine/index.ts';
import { createBenchAjv } from './contenders.ts';
import type { Fixture } from './fixtures.ts';
import type { Task } from './harness.ts';

export type CompileTaskId = 'schemaval' | 'cfworker' | 'clone' | 'ajv' | 'engine-hit' | 'fingerprint' | 'ajv-hit';

export interface CompileTask extends Task {
  readonly id: CompileTaskId;
}

/** Tasks for one fixture; the engine must already hold the fixture (see `createContenders`). */
export function compileTasks(fixture: Fixture, engine: Engine): CompileTask[] {
  const { schema, draft } = fixture;
  const ajv = createBenchAjv();
  const cached = structuredClone(schema);
  ajv.compile(cached);
  return [
    { id: 'schemaval', name: 'schemaval compileSchema (policy pass + cfworker)', run: () => compileSchema(schema) },
    // cfworker stamps the schema it is given, so each compile gets a fresh copy; the next row prices the copy.
    {
      id: 'cfworker',
      name: 'cfworker new Validator(structuredClone(schema))',
      run: () => new Validator(structuredClone(schema), draft, false),
    },
    { id: 'clone', name: '  of which structuredClone(schema)', run: () => structuredClone(schema) },
    {
      id: 'ajv',
      name: 'ajv.compile(structuredClone(schema)) [codegen]',
      run: () => {
        const copy = structuredClone(schema);
        const validate = ajv.compile(copy);
        ajv.removeSchema(copy);
        return validate;
      },
    },
    { id: 'engine-hit', name: 'schemaval engine.compile(same object), cache hit', run: () => engine.compile(schema) },
    { id: 'fingerprint', name: '  of which fingerprint(schema)', run: () => fingerprint(schema) },
    { id: 'ajv-hit', name: 'ajv.compile(same object), cache hit', run: () => ajv.compile(cached) },
  ];
}
