// The result schemas the adapter hands the SDK v1 Client's `request`, without importing the v1 SDK at run time (a
// host with only `@modelcontextprotocol/client` v2 installed can then import schemaval/host). The v1 client accepts
// any object with a zod-3-style `safeParse` (its zod-compat falls back to `schema.safeParse(data)`).
import { isJsonObject } from '../engine/json/index.ts';

/** A schema the v1 client's `request` can parse a result with. */
export interface PlainResultSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: Error };
}

/** Any result object, as sent: a `tools/list` page is read leniently afterwards (src/mcp/tool-list-result.ts). */
export const anyResult: PlainResultSchema<Record<string, unknown>> = {
  safeParse: (data) => (isJsonObject(data) ? { success: true, data } : { success: false, error: new Error('the result is not an object') }),
};

/**
 * A `tools/call` result, checked as the v1 SDK's `CallToolResultSchema` checks the fields the adapter and a host rely
 * on: an object whose `content` (default `[]`) is an array of objects with a string `type`, `structuredContent` an
 * object and `isError` a boolean where present. Other members pass as sent.
 */
export const callToolResult: PlainResultSchema<Record<string, unknown>> = {
  safeParse: (data) => {
    const fail = (message: string) => ({ success: false as const, error: new Error(`Invalid tools/call result: ${message}`) });
    if (!isJsonObject(data)) return fail('not an object');
    const content = data.content ?? [];
    if (!Array.isArray(content)) return fail('"content" is not an array');
    const bad = content.findIndex((item) => !isJsonObject(item) || typeof item.type !== 'string');
    if (bad >= 0) return fail(`content[${bad}] has no string "type"`);
    if (data.structuredContent !== undefined && !isJsonObject(data.structuredContent)) return fail('"structuredContent" is not an object');
    if (data.isError !== undefined && typeof data.isError !== 'boolean') return fail('"isError" is not a boolean');
    return { success: true, data: { ...data, content } };
  },
};
