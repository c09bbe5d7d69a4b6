import { parseJson } from '../../../src/engine/index.ts';
import { readLimitedText } from './read-limited-text.ts';

/**
 * A parsed body, or the HTTP answer for why there is none. A body nested past `maxBodyDepth` is 422 `too_deep`: the
 * schema (or instance) in it is far past the policy's `maxJsonDepth` and cannot even be parsed, let alone checked,
 * which is what 422 `too_deep` says of a schema that parses (docs/edge.md, `POST /v1/validate`).
 */
export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly status: 400 | 413 | 422;
      readonly code: 'bad_request' | 'body_too_large' | 'too_deep';
      readonly message: string;
    };

/**
 * Nesting allowed in a body, as in `schemaval lint`: deep enough that a too-deep schema is refused by the engine
 * (422 `too_deep`, naming where) and a too-deep instance is reported as invalid, rather than the whole body being
 * refused; past it the body is 422 `too_deep` without parsing.
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
  if (parsed.code === 'too_deep') {
    return { ok: false, status: 422, code: 'too_deep', message: `body JSON ${parsed.message}: too deep to parse, let alone check` };
  }
  return { ok: false, status: 400, code: 'bad_request', message: `body is not valid JSON: ${parsed.message}` };
}
