import type { Dialect } from '../../protocol/dialect.ts';
import type { Refused } from '../../protocol/outcome.ts';
import { jsonType } from '../json/json-type.ts';
import { truncate } from '../json/truncate.ts';

const dialectByUri: ReadonlyMap<string, Dialect> = new Map([
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
  ['json-schema.org/draft/2019-09/schema', '2019-09'],
  ['json-schema.org/draft-07/schema', 'draft-07'],
  ['json-schema.org/draft-06/schema', 'draft-06'],
  ['json-schema.org/draft-04/schema', 'draft-04'],
]);

/** The dialect a root schema declares; no `$schema` means 2020-12, as the MCP spec says. */
export function resolveDialect(schema: unknown, fallback: Dialect = '2020-12'): { status: 'accepted'; dialect: Dialect } | Refused {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || !('$schema' in schema)) {
    return { status: 'accepted', dialect: fallback };
  }
  const declared = (schema as { $schema: unknown }).$schema;
  if (typeof declared !== 'string') {
    return { status: 'refused', refusal: { code: 'invalid_schema', message: `$schema must be a string, got ${jsonType(declared)}` } };
  }
  const match = /^https?:\/\/(.*?)#?$/.exec(declared);
  const dialect = match ? dialectByUri.get(match[1] ?? '') : undefined;
  if (dialect === undefined) {
    return {
      status: 'refused',
      refusal: {
        code: 'unsupported_dialect',
        message: `$schema ${JSON.stringify(truncate(declared))} is not a supported dialect (2020-12, 2019-09, draft-07, draft-06, draft-04)`,
      },
    };
  }
  return { status: 'accepted', dialect };
}
