// Arguments for a tool schema the bench did not write: a call that fills every declared property from its subschema
// (enum, const, type, bounds, the formats and patterns the corpora use, same-document `$ref`s), and a wrong call
// with the mistakes a model typically makes. The caller checks each with the validators and drops what misses.

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sample strings for the formats and patterns found in the real and the generated corpus. */
const formatSamples: Record<string, string> = {
  uuid: '7f9c2b1e-4d3a-4c5b-9e8f-0123456789ab',
  'date-time': '2026-10-05T09:00:00Z',
  date: '2026-10-05',
  uri: 'https://example.com/a',
  email: 'ana@example.com',
};
const patternSamples: Record<string, string> = {
  '^[A-Z]{2,3}-[0-9]+$': 'AB-12',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': '2026-10-05',
  '^#[0-9a-fA-F]{6}$': '#a0b1c2',
};

/** Follows a same-document JSON pointer (`#`, `#/$defs/x`, `#/properties/a/items`). */
function resolve(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** A value `schema` accepts, or undefined; `variant` picks other `anyOf`/`oneOf` branches on a retry. */
export function sampleValid(root: Schema, variant = 0): unknown {
  return sample(root, root, variant, 0);
}

function sample(root: Schema, schema: unknown, variant: number, depth: number): unknown {
  if (schema === true || depth > 12) return null;
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref === 'string') return sample(root, resolve(root, schema.$ref), variant, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches) && branches.length > 0) {
      const branch = branches[(variant + depth) % branches.length];
      return sample(root, isObject(branch) ? { ...withoutKey(schema, keyword), ...branch } : branch, variant, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged = schema.allOf.filter(isObject).reduce<Schema>((all, part) => mergeSchemas(all, part), withoutKey(schema, 'allOf'));
    return sample(root, merged, variant, depth + 1);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (isObject(schema.properties) ? 'object' : 'string');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [name, sub] of Object.entries(properties)) {
        const value = sample(root, sub, variant, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 1;
      if (Array.isArray(schema.prefixItems) || Array.isArray(schema.items)) {
        const tuple = (schema.prefixItems ?? schema.items) as unknown[];
        return tuple.map((item) => sample(root, item, variant, depth + 1));
      }
      const item = schema.items ?? {};
      return Array.from({ length: Math.max(1, count) }, () => sample(root, item, variant, depth + 1));
    }
    case 'integer':
    case 'number': {
      const low =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? Math.floor(schema.exclusiveMinimum) + 1
            : 1;
      const high = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
      return Math.min(Math.ceil(low), high);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const format = typeof schema.format === 'string' ? formatSamples[schema.format] : undefined;
      const pattern = typeof schema.pattern === 'string' ? patternSamples[schema.pattern] : undefined;
      let text = format ?? pattern ?? 'abc';
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      if (text.length < min) text = text.padEnd(min, 'a');
      if (typeof schema.maxLength === 'number') text = text.slice(0, schema.maxLength);
      return text;
    }
  }
}

function withoutKey(schema: Schema, key: string): Schema {
  const { [key]: _, ...rest } = schema;
  return rest;
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  const properties = { ...(isObject(a.properties) ? a.properties : {}), ...(isObject(b.properties) ? b.properties : {}) };
  return { ...a, ...b, properties };
}

/**
 * Three mistakes on a valid call: the first property given a value of another type, the second required
 * property left out, an unknown key added. A call with no properties becomes a string (not an object).
 */
export function sampleWrong(schema: Schema, valid: unknown): unknown {
  if (!isObject(valid) || Object.keys(valid).length === 0) return 'not an object';
  const out: Record<string, unknown> = { ...valid };
  const [first] = Object.keys(out);
  if (first !== undefined) out[first] = wrongType(out[first]);
  const required = Array.isArray(schema.required) ? schema.required : [];
  const second = required[1];
  if (typeof second === 'string') delete out[second];
  out.unexpected_field = true;
  return out;
}

function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return 'forty-two';
  if (typeof value === 'boolean') return 'yes';
  if (value === null) return 0;
  return 'wrong';
}
