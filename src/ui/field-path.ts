const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The issue path of a top-level property, written the way the engine writes it: `$.city`, `$["odd key"]`. */
export function fieldPath(name: string): string {
  return identifier.test(name) ? `$.${name}` : `$[${JSON.stringify(name)}]`;
}

/** Whether an issue at `path` is about the property whose path is `field` (the property itself or inside it). */
export function isUnder(path: string, field: string): boolean {
  return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);
}

/** One step of an engine path: `.name`, `[2]` or `["odd key"]`. */
const step = /^(?:\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;

/**
 * Where inside the field `field` an issue at `path` is, in words (`[1].name` → `item 2, name`, counted from 1 as
 * people count); empty for the field itself or a path outside it. A path it cannot read is given as written.
 */
export function pathBelow(path: string, field: string): string {
  if (path === field || !isUnder(path, field)) return '';
  let rest = path.slice(field.length);
  const words: string[] = [];
  while (rest !== '') {
    const match = step.exec(rest);
    if (match === null) return path.slice(field.length);
    const [text, name, index, quoted] = match;
    words.push(name ?? (index !== undefined ? `item ${Number(index) + 1}` : (JSON.parse(quoted as string) as string)));
    rest = rest.slice(text.length);
  }
  return words.join(', ');
}
