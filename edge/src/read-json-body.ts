import { parseJson } from '../../src/engine/index.ts';
import { readLimitedText } from './read-limited-text.ts';

/** A parsed body, or the HTTP answer for why there is none. */
export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly code: 'bad_request' | 'body_too_large'; readonly message: string };

/**
 * Nesting allowed in a body, as in `schemaval lint`: deep enough that a too-deep schema is refused by the engine
 * (422 `too_deep`) and a too-deep instance is reported as invalid, rather than the whole body being rejected.
 */
export const maxBodyDepth = 1000;

/** Reads a size-bounded body and parses it losslessly (docs/architecture.md#schema-policy-and-refusal-codes: integers past 2^53 stay exact). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  const read = await readLimitedText(request, maxBytes);
  if (!read.ok) {
    return read.reason === 'too_large'
      ? { ok: false, status: 413, code: 'body_too_large', message: read.message }
      : { ok: false, status: 400, code: 'bad_request', message: read.message };
  }
  const parsed = parseJson(read.text, { maxBytes, maxDepth: maxBodyDepth });
  if (parsed.ok) return parsed;
  if (parsed.code === 'too_large') return { ok: false, status: 413, code: 'body_too_large', message: `body ${parsed.message}` };
  const message = parsed.code === 'too_deep' ? `body ${parsed.message}` : `body is not valid JSON: ${parsed.message}`;
  return { ok: false, status: 400, code: 'bad_request', message };
}
