import type { Dialect } from '../../protocol/dialect.ts';
import type { Refused } from '../../protocol/outcome.ts';
import type { Policy } from '../../protocol/policy.ts';
import type { Refusal } from '../../protocol/refusal.ts';
import { copyJson } from '../json/copy-json.ts';
import { jsonPath } from '../json/json-path.ts';
import { truncate } from '../json/truncate.ts';
import { checkPatterns } from '../patterns/check-patterns.ts';
import type { FormatMode } from '../schema/schema-types.ts';
import { checkExpansion } from './check-expansion.ts';
import type { CheckedSchema } from './checked-schema.ts';
import { resolveDialect } from './dialect.ts';
import { resolveRefs } from './resolve-refs.ts';
import { walkSchema } from './walk-schema.ts';

export type CheckResult = { readonly status: 'accepted'; readonly checked: CheckedSchema } | Refused;

/**
 * The static policy pass (docs/architecture.md#schema-policy-and-refusal-codes), run before a validator library sees the schema: bounds, dialect, keyword
 * types, patterns, references on every branch, and in-place expansion. Works on a copy; the input is untouched.
 * What only one validator library cannot enforce is its adapter's to refuse (`SchemaValidatorAdapter.check`).
 */
export function checkSchema(schema: unknown, policy: Policy, formats: FormatMode, defaultDialect: Dialect = '2020-12'): CheckResult {
  const copied = copyJson(schema, { maxBytes: policy.maxSchemaBytes, maxDepth: policy.maxJsonDepth });
  if (!copied.ok) {
    const where = copied.path.length > 0 ? ` at ${truncate(jsonPath(copied.path).replace(/^\$/, 'schema'), 60)}` : '';
    switch (copied.reason) {
      case 'too_deep':
        return refuse('too_deep', `JSON nesting deeper than ${policy.maxJsonDepth}${where}`);
      case 'too_large':
        return refuse('too_large', `schema is over ${policy.maxSchemaBytes} bytes of JSON`);
      default:
        return refuse('invalid_schema', `not JSON${where}: ${copied.detail}`);
    }
  }
  const root = copied.holder[0];
  if (typeof root !== 'boolean' && (typeof root !== 'object' || root === null || Array.isArray(root))) {
    return refuse(
      'invalid_schema',
      `a schema is an object or a boolean, got ${root === null ? 'null' : Array.isArray(root) ? 'array' : typeof root}`,
    );
  }
  const dialect = resolveDialect(root, defaultDialect);
  if (dialect.status === 'refused') return dialect;
  const walked = walkSchema(root, dialect.dialect, policy, formats, copied);
  if (walked.status === 'refused') return walked;
  const pattern = checkPatterns(walked.index.patterns, policy.maxWork);
  if (pattern) return { status: 'refused', refusal: pattern };
  const refs = resolveRefs(walked.index);
  if (refs.status === 'refused') return refs;
  const expansion = checkExpansion(walked.index, refs.targets, policy);
  if (expansion) return { status: 'refused', refusal: expansion };
  return {
    status: 'accepted',
    checked: {
      root: walked.root,
      dialect: dialect.dialect,
      index: walked.index,
      warnings: walked.index.warnings,
      bigNumbers: copied.bigNumbers,
      bytes: copied.bytes,
      values: copied.values,
      patternKeys: copied.patternKeys,
      retained: walked.retained,
      targets: refs.targets,
    },
  };
}

function refuse(code: Refusal['code'], message: string): CheckResult {
  return { status: 'refused', refusal: { code, message } };
}
