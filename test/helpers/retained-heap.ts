// Run as a child: node --expose-gc --import tsx test/helpers/retained-heap.ts <shape> <copies>. Compiles distinct
// copies of one shape into an engine that never evicts, validates each once (an entry is cached to be used), and
// prints the heap retained per copy next to the engine's weight of it, as JSON.
import { compiledWeight } from '../../src/engine/core/compiled-weight.ts';
import { createEngine } from '../../src/engine/index.ts';
import { longBaseSchema, pointerBomb, pointerBombInstance } from '../fixtures/hostile-inputs.ts';

/**
 * Each copy differs in its outermost name or its base, so no copy shares a pointer string with another. None holds a
 * `$ref`: `shapes` below adds one to each (so the validator builds its index) and keeps each as it is under the name
 * "… without a $ref".
 */
const bases: Record<string, (i: number) => readonly [unknown, unknown]> = {
  'under the pointer bound': (i) => {
    const options = { levels: 29, nameLength: 560 } as const;
    const schema = pointerBomb({ ...options, leaves: 100, bottom: 'properties' });
    return [{ type: 'object', properties: { [`copy${i}`]: schema } }, { [`copy${i}`]: pointerBombInstance(options) }];
  },
  'long names over anyOf': (i) => [
    { type: 'object', properties: { [`copy${i}`]: pointerBomb({ levels: 29, nameLength: 1500, leaves: 20 }) } },
    {},
  ],
  'a 20,000-character $id': (i) => [{ ...longBaseSchema(20_000, 90), $id: `https://copy${i}.example.com/${'a'.repeat(20_000)}` }, {}],
  'nested relative $ids': (i) => {
    let node: Record<string, unknown> = { type: 'integer' };
    for (let level = 0; level < 8; level++) {
      node = { $id: `l${level}/`, properties: { [`k${level}`.padEnd(200, 'x')]: node, a: { type: 'string' } } };
    }
    return [{ ...node, $id: `https://copy${i}.example.com/` }, {}];
  },
};

/** The shape with a `$ref` to an empty definition beside its own keywords: the same verdicts, and an index. */
const withRef = (schema: unknown): unknown => ({ ...(schema as object), allOf: [{ $ref: '#/$defs/any' }], $defs: { any: {} } });

const shapes: Record<string, (i: number) => readonly [unknown, unknown]> = {};
for (const [name, make] of Object.entries(bases)) {
  shapes[name] = (i) => {
    const [schema, instance] = make(i);
    return [withRef(schema), instance];
  };
  shapes[`${name} without a $ref`] = make;
}

const [name = '', copiesText = '4'] = process.argv.slice(2);
const make = shapes[name];
if (make === undefined) throw new Error(`unknown shape ${name}; known: ${Object.keys(shapes).join(', ')}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const settle = (): void => {
  let last = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 8; i++) {
    gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= last - 16 * 1024) return;
    last = used;
  }
};
const copies = Number(copiesText);
const engine = createEngine({ cacheSize: copies + 2, maxCacheBytes: Number.MAX_SAFE_INTEGER });
{
  const [schema, instance] = make(-1);
  const { result } = await engine.compile(schema);
  if (result.status === 'accepted') result.schema.validate(instance);
}
settle();
const before = process.memoryUsage().heapUsed;
let weight = 0;
for (let i = 0; i < copies; i++) {
  const [schema, instance] = make(i);
  const { result } = await engine.compile(JSON.parse(JSON.stringify(schema)));
  if (result.status === 'refused') throw new Error(`${name}: refused (${result.refusal.message})`);
  weight += compiledWeight(result);
  result.schema.validate(instance);
}
settle();
const retained = (process.memoryUsage().heapUsed - before) / copies;
console.log(JSON.stringify({ name, retained: Math.round(retained), weight: Math.round(weight / copies) }));
