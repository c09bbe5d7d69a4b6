/**
 * Whether any object in a JSON value has an own key `pattern` or `patternProperties`: where the linear-time matcher
 * may be needed. It over-approximates (a property or a constant so named counts too), never the other way round:
 * the adapter scopes cfworker's `RegExp` by it, and the page's worker loads re2js by it. Iterative; a cycle is
 * walked once.
 */
export function hasPatternKeys(value: unknown): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (Object.hasOwn(node, 'pattern') || Object.hasOwn(node, 'patternProperties')) return true;
    for (const item of Object.values(node)) stack.push(item);
  }
  return false;
}
