import { maxToolListPages, maxToolsPerListing, readToolListPage } from '../../../src/mcp/index.ts';
import { GatewayStateError, type UpstreamFailure } from '../rpc/gateway-error.ts';
import { idKey, isResponse, type JsonRpcResponse } from '../rpc/json-rpc.ts';
import type { SessionStore, StoredTool } from '../state/session-store.ts';
import { listHints } from '../state/tool-cache.ts';
import type { UpstreamFetch } from '../upstream/upstream-fetch.ts';
import { mediaType } from '../upstream/upstream-fetch.ts';
import { readJsonBody, readSse, type UpstreamLimits } from '../upstream/upstream-messages.ts';
import type { ToolGate } from './tool-gate.ts';

/** At most this many `tools/list` pages for one call to a tool the gateway has not seen: every surface's bound. */
export const maxListPages = maxToolListPages;
/** At most this many tools listed for one such call. */
export const maxListedTools = maxToolsPerListing;

export interface FindToolOptions {
  readonly gate: ToolGate;
  readonly limits: UpstreamLimits;
  /** Posts a message of the gateway's own to the upstream in the client's session. */
  readonly post: (message: unknown) => Promise<UpstreamFetch>;
  readonly maxPages?: number;
  readonly maxTools?: number;
  /** The client request's MCP revision: it decides whether a non-object `outputSchema` root is malformed. */
  readonly revision?: string;
}

export type FoundTool = { readonly ok: true; readonly tool: StoredTool | undefined } | ({ readonly ok: false } & UpstreamFailure);

/**
 * The session's record of a tool; lists the upstream's tools first when the gateway has not seen it, page by page
 * until the tool turns up or the list ends, within the same time and size bounds as any upstream answer and at
 * most `maxPages` pages and `maxTools` tools (`too_many_pages` past them), the same bound as every surface's
 * listing (src/mcp/tool-list-limits.ts).
 */
export async function findTool(store: SessionStore, name: string, options: FindToolOptions): Promise<FoundTool> {
  const known = await store.getTool(name);
  if (known !== undefined) return { ok: true, tool: known };
  const maxPages = options.maxPages ?? maxListPages;
  const maxTools = options.maxTools ?? maxListedTools;
  let cursor: unknown;
  let listed = 0;
  for (let page = 0; page < maxPages; page++) {
    const id = `schemaval-tools-list-${page}`;
    const sent = await options.post({ jsonrpc: '2.0', id, method: 'tools/list', params: cursor === undefined ? {} : { cursor } });
    if (!sent.ok) return sent;
    const reply = await readReply(sent.response, id, options.limits);
    if (!reply.ok) return reply;
    if (reply.message.error !== undefined) return { ok: false, code: 'upstream_error', message: 'the upstream refused to list its tools' };
    // Only the envelope is checked: each tool is judged by the engine, a malformed one refused invalid_tool.
    const result = readToolListPage(reply.message.result);
    if (!result.ok) return { ok: false, code: 'upstream_malformed', message: `the upstream's answer: ${result.message}` };
    listed += result.tools.length;
    if (listed > maxTools) return { ok: false, code: 'too_many_pages', message: `the upstream lists more than ${maxTools} tools` };
    // Page 0 starts a new list: it replaces what the session could call, the later pages add to it.
    try {
      await options.gate.admit(result.tools, store, { ...listHints(result.rest), first: page === 0 }, options.revision);
    } catch (error) {
      // The session state could not keep the list (over its bound, or the store failed): the call is not checked.
      if (!(error instanceof GatewayStateError)) throw error;
      return { ok: false, code: error.code, message: error.message };
    }
    const tool = await store.getTool(name);
    if (tool !== undefined) return { ok: true, tool };
    cursor = result.nextCursor;
    if (cursor === undefined) return { ok: true, tool: undefined };
  }
  return { ok: false, code: 'too_many_pages', message: `the upstream's tool list runs past ${maxPages} pages` };
}

type Reply = { readonly ok: true; readonly message: JsonRpcResponse } | ({ readonly ok: false } & UpstreamFailure);

/** The response to the gateway's own request `id`, read from a JSON or SSE body within the limits. */
async function readReply(response: Response, id: string, limits: UpstreamLimits): Promise<Reply> {
  const type = mediaType(response.headers.get('content-type'));
  const matches = (m: unknown): m is JsonRpcResponse => isResponse(m) && idKey(m.id) === idKey(id);
  if (!response.ok) {
    response.body?.cancel().catch(() => undefined);
    return { ok: false, code: 'upstream_error', message: `the upstream answered tools/list with HTTP ${response.status}` };
  }
  if (type === 'application/json') {
    const parsed = await readJsonBody(response, limits);
    if (!parsed.ok) return parsed;
    return matches(parsed.value)
      ? { ok: true, message: parsed.value }
      : { ok: false, code: 'upstream_malformed', message: 'the upstream did not answer tools/list' };
  }
  if (type === 'text/event-stream' && response.body !== null) {
    const source = readSse(response.body, limits, () => true);
    for (;;) {
      for (const item of await source.next()) {
        if (item.kind === 'failure' || item.kind === 'malformed') {
          source.cancel();
          return { ok: false, ...item.failure };
        }
        if (item.kind === 'end')
          return { ok: false, code: 'upstream_truncated', message: 'the upstream stream ended before answering tools/list' };
        if (item.kind === 'message' && matches(item.value)) {
          source.cancel();
          return { ok: true, message: item.value };
        }
      }
    }
  }
  response.body?.cancel().catch(() => undefined);
  return { ok: false, code: 'upstream_content_type', message: 'the upstream answered tools/list with neither JSON nor SSE' };
}
