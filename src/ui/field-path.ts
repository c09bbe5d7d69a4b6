const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The issue path of a top-level property, written the way the engine writes it: `$.city`, `$["odd key"]`. */
export function fieldPath(name: string): string {
  return identifier.test(name) ? `$.${name}` : `$[${JSON.stringify(name)}]`;
}

/** Whether an issue at `path` is about the property whose path is `field` (the property itself or inside it). */
export function isUnder(path: string, field: string): boolean {
  return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);
}
