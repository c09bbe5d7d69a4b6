/** Keywords whose value maps names to subschemas (or, for `dependencies`, to arrays): the next segment is a name. */
const nameMaps = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions']);
/** Keywords whose value may be a list of subschemas: the next segment is an index (`items` only in its array form). */
const lists = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const index = /^(?:0|[1-9]\d*)$/;

/**
 * For each segment of a keyword location (decoded, from the root, through `$ref`s as the validator writes them),
 * whether it names a keyword rather than a property name or an item index. In `/properties/$ref/required` the
 * middle `$ref` is a property: a key that looks like a keyword (`$ref`, `type`, `constructor`) is read by its
 * place, never by its spelling.
 */
export function keywordSegments(segments: readonly string[]): boolean[] {
  const out: boolean[] = [];
  let keyword = true;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    out.push(keyword);
    if (!keyword) keyword = true;
    else if (nameMaps.has(segment)) keyword = false;
    // A keyword is never all digits, so `items/0` is an index and `items/type` a keyword of `items`' subschema.
    else if (lists.has(segment)) keyword = !index.test(segments[i + 1] ?? '');
  }
  return out;
}
