// The cost of reaching a compiled schema through the engine's caches, on a schema whose validation is nearly free.
import { compileSchema, type Engine } from '../src/engine/index.ts';
import type { Task } from './harness.ts';

export type LookupTaskId = 'direct' | 'engine' | 'tool';

export interface LookupTask extends Task {
  readonly id: LookupTaskId;
}

/** `{}` against the schema `{ type: 'object' }`, directly and through both fingerprint lookups. */
export async function lookupTasks(engine: Engine): Promise<LookupTask[]> {
  const schema = { type: 'object' };
  const instance = {};
  const compiled = compileSchema(schema);
  if (compiled.status === 'refused') throw new Error('the lookup schema was refused');
  const direct = compiled.schema;
  const { fingerprint } = await engine.compile(schema);
  const [verdict] = await engine.compileTools([{ name: 'bench_lookup', inputSchema: schema }]);
  const toolFingerprint = verdict?.fingerprint ?? '';
  return [
    { id: 'direct', name: 'compileSchema({type:"object"}).validate({})', run: () => direct.validate(instance) },
    { id: 'engine', name: 'engine.validate(fingerprint, {})', run: () => engine.validate(fingerprint, instance) },
    { id: 'tool', name: 'engine.validateArguments(tool fingerprint, {})', run: () => engine.validateArguments(toolFingerprint, instance) },
  ];
}
