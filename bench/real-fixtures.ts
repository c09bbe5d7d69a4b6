// The real-world-sized tool schemas of the corpus as section 1 fixtures: the 84 KB schema the issue measured and the
// corpus's largest (~230 KiB, near the 256 KiB bound), each with a realistic batch of resources, valid and wrong.
import { buildLargeSchema } from '../test/fixtures/real-world/large-schema.ts';
import { largeSizesKiB, largeToolSchema } from './corpus.ts';
import type { BenchSchema } from './fixtures.ts';
import { formatBytes } from './format-units.ts';

const regions = ['us-east-1', 'eu-west-1', 'ap-south-1'];

/** A resource every definition of the large schema accepts (they differ only in descriptions). */
function resource(i: number): Record<string, unknown> {
  return {
    id: `7f9c2b1e-4d3a-4c5b-9e8f-${String(100000000000 + i)}`,
    name: `web-${i}`,
    region: regions[i % regions.length],
    size: 16 + i,
    replicas: i % 3 === 0 ? null : 2,
    labels: { team: 'platform', tier: i % 2 === 0 ? 'frontend' : 'backend' },
    tags: ['prod', `svc-${i}`],
    ports: [{ port: 443, protocol: 'tcp' }, { port: 8080 }],
    spec: { image: 'nginx:1.27', command: ['nginx', '-g', 'daemon off;'], env: { MODE: 'prod', DEBUG: null }, restart: 'always' },
  };
}

/**
 * Eight good resources (twenty would exceed schemaval's work bound on the 230 KiB schema: 20 resources × 110 anyOf
 * branches); the wrong batch has one resource in an unknown region, one oversized, one with an extra field.
 */
function instances(): { valid: unknown; invalid: unknown } {
  const resources = Array.from({ length: 8 }, (_, i) => resource(i));
  const wrong = resources.slice(0, 5).map((r) => ({ ...r }));
  (wrong[1] as Record<string, unknown>).region = 'mars-north-1';
  (wrong[2] as Record<string, unknown>).size = 4096;
  (wrong[3] as Record<string, unknown>).owner = 'ana';
  const settings = { level1: { level2: { level3: { level4: { level5: {} } } } } };
  return { valid: { resources, settings, dryRun: true }, invalid: { resources: wrong, settings, dryRun: 'no' } };
}

/** The eight good resources with one leaf wrong (the fourth resource's size past its maximum): one issue to explain. */
export function oneWrongLeaf(): unknown {
  const { valid } = instances();
  const copy = structuredClone(valid) as { resources: Record<string, unknown>[] };
  (copy.resources[3] as Record<string, unknown>).size = 4096;
  return copy;
}

function realFixture(name: string, schema: Record<string, unknown>): BenchSchema {
  const bytes = JSON.stringify(schema).length;
  return {
    name,
    description: `apply_changes: the corpus's real-world-sized draft-07 schema, ${formatBytes(bytes)}, anyOf over its resource kinds`,
    draft: '7',
    schema,
    ...instances(),
  };
}

/** The 84 KB schema and the corpus's largest input schema. */
export function realFixtures(): BenchSchema[] {
  const largest = Math.max(...largeSizesKiB);
  return [realFixture('real 84 KB', buildLargeSchema()), realFixture(`real ${largest} KiB`, largeToolSchema(largest, 0))];
}
