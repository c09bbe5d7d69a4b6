// A corpus-sized set of MCP tool definitions (1,728 by default), generated deterministically so every run, every
// helper and every machine benches the same bytes. The mix follows what public MCP servers publish: mostly small
// flat objects, a fifth draft-07 zod-to-json-schema output with `definitions`, pydantic-style `anyOf` nullables and
// `$defs`, no-argument tools, tools sharing one schema, some output schemas, and a few 50–230 KB giants built from
// the real-world large schema (test/fixtures/real-world/large-schema.ts).
import { buildLargeSchema, buildLargeSchemaOfKinds } from '../test/fixtures/real-world/large-schema.ts';

/** A tool as `tools/list` returns it (the fields the engine reads). */
export interface CorpusTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
}

/** The size of the real corpus the issue measured. */
export const corpusSize = 1728;

/** Target sizes of the large input schemas, in KiB (JSON bytes), one tool each. */
export const largeSizesKiB: readonly number[] = [52, 64, 84, 110, 140, 175, 205, 230];

type Style = 'bare' | 'draft-07' | '2020-12' | 'pydantic';
type Schema = Record<string, unknown>;

/** mulberry32: a tiny seeded PRNG, so the corpus is the same on every run. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const servers = [
  'github',
  'gitlab',
  'slack',
  'notion',
  'linear',
  'jira',
  'postgres',
  'sqlite',
  'filesystem',
  'gdrive',
  'gmail',
  'calendar',
  'stripe',
  'shopify',
  'aws',
  'k8s',
  'docker',
  'sentry',
  'datadog',
  'hubspot',
  'salesforce',
  'zendesk',
  'figma',
  'browser',
  'search',
  'maps',
  'weather',
  'spotify',
];
const verbs = ['get', 'list', 'create', 'update', 'delete', 'search', 'run', 'send', 'fetch', 'read', 'write', 'archive'];
const nouns = [
  'issue',
  'file',
  'page',
  'user',
  'repo',
  'message',
  'channel',
  'event',
  'record',
  'document',
  'ticket',
  'invoice',
  'customer',
  'task',
  'branch',
  'commit',
  'query',
  'table',
  'bucket',
  'object',
  'deployment',
  'comment',
  'label',
  'project',
];
const fieldNames = [
  'id',
  'name',
  'title',
  'query',
  'path',
  'owner',
  'repo',
  'limit',
  'offset',
  'cursor',
  'page',
  'per_page',
  'sort',
  'order',
  'state',
  'status',
  'body',
  'content',
  'email',
  'url',
  'since',
  'until',
  'tags',
  'labels',
  'assignee',
  'priority',
  'dry_run',
  'recursive',
  'timeout',
  'region',
  'format',
  'language',
  'channel_id',
  'user_id',
  'project_id',
  'parent_id',
];
const enums = [
  ['asc', 'desc'],
  ['open', 'closed', 'all'],
  ['low', 'medium', 'high', 'urgent'],
  ['json', 'csv', 'markdown', 'text'],
  ['created', 'updated', 'popularity', 'relevance'],
  ['public', 'private', 'internal'],
];
const formats = ['uri', 'email', 'date-time', 'date', 'uuid'];
const patterns = ['^[a-z0-9][a-z0-9-]*$', '^[A-Z]{2,3}-[0-9]+$', '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', '^#[0-9a-fA-F]{6}$', '^[A-Za-z0-9_.-]+$'];

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

/** One leaf property, in the idiom of the generator that would have written it. */
function leaf(random: () => number, field: string, style: Style): Schema {
  const description = `The ${field.replace(/_/g, ' ')} to use.`;
  const roll = random();
  let schema: Schema;
  if (roll < 0.38) {
    schema = { type: 'string', description };
    const extra = random();
    if (extra < 0.2) schema.format = pick(random, formats);
    else if (extra < 0.32) schema.pattern = pick(random, patterns);
    else if (extra < 0.55) Object.assign(schema, { minLength: 1, maxLength: 256 });
  } else if (roll < 0.55) {
    schema = { type: 'integer', minimum: 0, maximum: 1000, default: 30, description };
  } else if (roll < 0.62) {
    schema = { type: 'number', minimum: 0, description };
  } else if (roll < 0.74) {
    schema = { type: 'boolean', default: false, description };
  } else if (roll < 0.86) {
    schema = { type: 'string', enum: pick(random, enums), description };
  } else {
    schema = { type: 'array', items: { type: 'string' }, maxItems: 50, description };
    if (random() < 0.4) schema.uniqueItems = true;
  }
  if (style === 'pydantic') schema.title = field.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  if (random() < 0.12) {
    // Optional values that may be null: a type array from zod, an anyOf from pydantic.
    if (style === 'pydantic') {
      const { description: d, title, default: _default, ...rest } = schema;
      return { anyOf: [rest, { type: 'null' }], default: null, description: d, title };
    }
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  }
  return schema;
}

function dialect(style: Style): Schema {
  if (style === 'draft-07') return { $schema: 'http://json-schema.org/draft-07/schema#' };
  if (style === '2020-12') return { $schema: 'https://json-schema.org/draft/2020-12/schema' };
  return {};
}

/** A flat object of 1–8 leaves: most tools look like this. */
function flatSchema(random: () => number, style: Style): Schema {
  const count = 1 + Math.floor(random() * random() * 8);
  const properties: Schema = {};
  for (let i = 0; i < count; i++) {
    const field = pick(random, fieldNames);
    properties[field] = leaf(random, field, style);
  }
  const names = Object.keys(properties);
  const required = names.filter((_, i) => i === 0 || random() < 0.25);
  const schema: Schema = { ...dialect(style), type: 'object', properties, required };
  if (style === 'draft-07' || random() < 0.3) schema.additionalProperties = false;
  if (style === 'pydantic') schema.title = 'Arguments';
  return schema;
}

/** Nested objects, arrays of objects and a shared definition behind `$ref`. */
function nestedSchema(random: () => number, style: Style, id: number): Schema {
  const defsKey = style === 'draft-07' ? 'definitions' : '$defs';
  const itemName = `Item${id % 7}`;
  const itemProperties: Schema = {};
  for (let i = 0; i < 3 + Math.floor(random() * 5); i++) {
    const field = pick(random, fieldNames);
    itemProperties[field] = leaf(random, field, style);
  }
  const item: Schema = { type: 'object', properties: itemProperties, required: Object.keys(itemProperties).slice(0, 1) };
  if (random() < 0.5) item.additionalProperties = false;
  const base = flatSchema(random, style);
  const properties = { ...(base.properties as Schema) };
  properties.items = { type: 'array', items: { $ref: `#/${defsKey}/${itemName}` }, maxItems: 100, description: 'Items to apply.' };
  properties.options = {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['fast', 'safe', 'strict'] },
      retries: { type: 'integer', minimum: 0, maximum: 5 },
      notify: { type: ['string', 'null'], format: 'email' },
    },
    additionalProperties: false,
  };
  if (random() < 0.3) {
    properties.filter = {
      anyOf: [
        {
          type: 'object',
          properties: { field: { type: 'string' }, equals: { type: ['string', 'number', 'boolean'] } },
          required: ['field'],
        },
        { type: 'object', properties: { and: { type: 'array', items: { type: 'object' } } }, required: ['and'] },
      ],
    };
  }
  return { ...base, properties, [defsKey]: { [itemName]: item } };
}

/** An output schema as SDK servers declare with `outputSchema`: a result object, often with a list. */
function outputSchema(random: () => number, style: Style): Schema {
  return {
    ...dialect(style),
    type: 'object',
    properties: {
      ok: { type: 'boolean' },
      count: { type: 'integer', minimum: 0 },
      results: { type: 'array', items: flatSchema(random, 'bare') },
      next_cursor: { type: ['string', 'null'] },
    },
    required: ['ok'],
  };
}

/** The real-world large schema grown (or shrunk) to about `kib` KiB by repeating its resource definitions. */
export function largeToolSchema(kib: number, id: number): Schema {
  const base = buildLargeSchema() as Schema & { definitions: Schema };
  const kinds = Object.keys(base.definitions).length;
  const perKind = JSON.stringify(base.definitions.Resource0).length + 60;
  const fixed = JSON.stringify(base).length - kinds * perKind;
  const wanted = Math.max(1, Math.round((kib * 1024 - fixed) / perKind));
  return buildLargeSchemaOfKinds(wanted, `Apply a batch of infrastructure changes in one call (stack ${id}).`);
}

/**
 * Builds the corpus: `size` tools with distinct names, about 62% flat, 22% nested, 6% without arguments, 8% sharing
 * another tool's input schema, 9% with an output schema, plus `largeSizesKiB.length` large ones spread through it.
 */
export function buildCorpus(size: number = corpusSize, seed = 12): CorpusTool[] {
  const random = createRandom(seed);
  const tools: CorpusTool[] = [];
  const names = new Set<string>();
  const largeAt = new Map(largeSizesKiB.map((kib, i) => [Math.floor(((i + 0.5) * size) / largeSizesKiB.length), kib]));
  for (let i = 0; i < size; i++) {
    const server = servers[i % servers.length] as string;
    let name = `${server}_${pick(random, verbs)}_${pick(random, nouns)}`;
    if (names.has(name)) name = `${name}_${i}`;
    names.add(name);
    const styleRoll = random();
    const style: Style = styleRoll < 0.4 ? 'bare' : styleRoll < 0.72 ? 'draft-07' : styleRoll < 0.87 ? '2020-12' : 'pydantic';
    const kib = largeAt.get(i);
    const shapeRoll = random();
    let inputSchema: Schema;
    if (kib !== undefined) inputSchema = largeToolSchema(kib, i);
    else if (shapeRoll < 0.06)
      inputSchema = style === 'pydantic' ? { properties: {}, title: 'Arguments', type: 'object' } : { type: 'object' };
    else if (shapeRoll < 0.14 && tools.length > 0) inputSchema = (tools[Math.floor(random() * tools.length)] as CorpusTool).inputSchema;
    else if (shapeRoll < 0.36) inputSchema = nestedSchema(random, style, i);
    else inputSchema = flatSchema(random, style);
    const tool: CorpusTool = {
      name,
      description: `${name.replace(/_/g, ' ')}: ${server} tool number ${i}, generated for the benchmark corpus.`,
      inputSchema,
      ...(random() < 0.09 ? { outputSchema: outputSchema(random, style) } : {}),
    };
    tools.push(tool);
  }
  return tools;
}

/** Sizes of the corpus: tools, distinct input schemas, JSON bytes of all tools, the largest input schema. */
export function corpusStats(tools: readonly CorpusTool[]): { tools: number; distinctInputs: number; bytes: number; largestBytes: number } {
  const inputs = new Set(tools.map((tool) => JSON.stringify(tool.inputSchema)));
  let largestBytes = 0;
  for (const text of inputs) largestBytes = Math.max(largestBytes, text.length);
  return { tools: tools.length, distinctInputs: inputs.size, bytes: JSON.stringify(tools).length, largestBytes };
}
