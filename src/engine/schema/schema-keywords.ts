import type { Dialect } from '../../protocol/dialect.ts';

/** How a keyword holds subschemas, and whether they apply to the same instance location (in place). */
export interface SubschemaKeyword {
  readonly shape: 'schema' | 'array' | 'map' | 'schemaOrArray' | 'dependencies';
  /** Applied to the instance itself (allOf, $ref's neighbours…) rather than to a child of it. */
  readonly inPlace: boolean;
  /** Holds subschemas that are never applied by the keyword itself ($defs). */
  readonly container?: true;
}

const common: Record<string, SubschemaKeyword> = {
  allOf: { shape: 'array', inPlace: true },
  anyOf: { shape: 'array', inPlace: true },
  oneOf: { shape: 'array', inPlace: true },
  not: { shape: 'schema', inPlace: true },
  properties: { shape: 'map', inPlace: false },
  patternProperties: { shape: 'map', inPlace: false },
  additionalProperties: { shape: 'schema', inPlace: false },
  items: { shape: 'schemaOrArray', inPlace: false },
  additionalItems: { shape: 'schema', inPlace: false },
  definitions: { shape: 'map', inPlace: false, container: true },
  // Not a keyword before 2019-09, but generators put it in draft-07 schemas too; `#/$defs/…` pointers must resolve.
  $defs: { shape: 'map', inPlace: false, container: true },
};

const draft04: Record<string, SubschemaKeyword> = {
  ...common,
  dependencies: { shape: 'dependencies', inPlace: true },
};

const draft07: Record<string, SubschemaKeyword> = {
  ...draft04,
  contains: { shape: 'schema', inPlace: false },
  propertyNames: { shape: 'schema', inPlace: false },
  if: { shape: 'schema', inPlace: true },
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword, not a thenable.
  then: { shape: 'schema', inPlace: true },
  else: { shape: 'schema', inPlace: true },
};

const draft2019: Record<string, SubschemaKeyword> = {
  // `dependencies` was split into dependentRequired/dependentSchemas in 2019-09; it is still honoured, so a
  // schema written the old way is enforced as its author meant (the suite's dependencies-compatibility tests).
  ...draft07,
  $defs: { shape: 'map', inPlace: false, container: true },
  dependentSchemas: { shape: 'map', inPlace: true },
  unevaluatedItems: { shape: 'schema', inPlace: false },
  unevaluatedProperties: { shape: 'schema', inPlace: false },
};

const draft2020: Record<string, SubschemaKeyword> = {
  ...draft2019,
  prefixItems: { shape: 'array', inPlace: false },
  items: { shape: 'schemaOrArray', inPlace: false },
};

const byDialect: Record<Dialect, Readonly<Record<string, SubschemaKeyword>>> = {
  'draft-04': draft04,
  // draft-06 is checked with draft-07 rules (docs/dialects.md).
  'draft-06': draft07,
  'draft-07': draft07,
  '2019-09': draft2019,
  '2020-12': draft2020,
};

/** The keywords whose values hold subschemas in a dialect. */
export function subschemaKeywords(dialect: Dialect): Readonly<Record<string, SubschemaKeyword>> {
  return byDialect[dialect];
}

/**
 * Keywords the validator library would apply whatever the dialect, but that the declared dialect does not define.
 * They are dropped from the engine's copy (with a warning), so a draft-04 schema means what draft-04 says.
 */
const foreign: Record<Exclude<Dialect, 'draft-06'>, readonly string[]> = {
  'draft-04': [
    'const',
    'contains',
    'propertyNames',
    'if',
    'then',
    'else',
    'dependentRequired',
    'dependentSchemas',
    'unevaluatedItems',
    'unevaluatedProperties',
    'prefixItems',
    'minContains',
    'maxContains',
    '$recursiveRef',
    '$recursiveAnchor',
    '$anchor',
  ],
  'draft-07': [
    'dependentRequired',
    'dependentSchemas',
    'unevaluatedItems',
    'unevaluatedProperties',
    'prefixItems',
    'minContains',
    'maxContains',
    '$recursiveRef',
    '$recursiveAnchor',
    '$anchor',
  ],
  '2019-09': ['prefixItems'],
  '2020-12': ['$recursiveRef', '$recursiveAnchor'],
};

/** Keywords the library applies that this dialect does not define (draft-06 follows draft-07). */
export function foreignKeywords(dialect: Dialect): readonly string[] {
  return foreign[dialect === 'draft-06' ? 'draft-07' : dialect];
}

/** Keywords beside a draft-04…07 `$ref` that are ignored and worth telling the author about. */
export const annotationKeywords: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'readOnly',
  'writeOnly',
  'deprecated',
  'definitions',
  '$defs',
  '$schema',
  '$id',
  'id',
]);
