/**
 * Whether a value is a JSON object: not null and not an array. The one guard every layer uses (issue #19), so a
 * value read from the wire narrows to `Record<string, unknown>` (a union such as `Json` narrows to its object member).
 */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
