/**
 * A `tools/list` result read leniently: only its envelope is checked (an object whose `tools` is an array, and a
 * `nextCursor` that is a string where there is one). Each entry is left for `toolListRefusals` to judge, so one
 * malformed tool definition is one refused tool, never a failed listing.
 */
export type ToolListPage =
  | {
      readonly ok: true;
      readonly tools: readonly unknown[];
      readonly nextCursor: string | undefined;
      /** The result's other members (`_meta`, `ttlMs`, `cacheScope`, `resultType`, …), as sent. */
      readonly rest: Readonly<Record<string, unknown>>;
    }
  | { readonly ok: false; readonly message: string };

export function readToolListPage(result: unknown): ToolListPage {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    return { ok: false, message: 'the tools/list result is not an object' };
  }
  const { tools, nextCursor, ...rest } = result as { tools?: unknown; nextCursor?: unknown };
  if (!Array.isArray(tools)) return { ok: false, message: 'the tools/list result has no "tools" array' };
  if (nextCursor !== undefined && typeof nextCursor !== 'string') {
    return { ok: false, message: 'the tools/list result has a "nextCursor" that is not a string' };
  }
  return { ok: true, tools, nextCursor, rest };
}
