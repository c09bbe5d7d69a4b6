const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Renders instance path segments as `$`, `$.count`, `$.items[2].name`, `$["odd key"]`. */
export function jsonPath(segments: readonly (string | number)[]): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (identifier.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
