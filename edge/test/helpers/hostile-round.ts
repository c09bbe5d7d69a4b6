// One full round of issue #17's hostile shapes against an edge started by `startHostileEdge`, every request sent
// once and its answer read, nothing asserted: what edge/test/workerd/wrangler-bounds.test.ts repeats to see whether memory
// keeps growing round after round. `round` names the forged session ids, so every round sends new ones, as an
// attacker would; they are refused 404 (the gateway seals the ids it hands out) and open no state key, no Durable
// Object. The cache filler's sessions are real ones, opened with `initialize`.
import {
  bigPrograms,
  distinctPointerBody,
  longPointerBody,
  multiplierBodies,
  patternArgument,
  patternBodies,
} from '../../../test/fixtures/hostile-bounds.ts';

let rpcId = 1_000_000;

/**
 * Sessions (opened with `initialize`, each a state key and a Durable Object) that each call an unknown tool of the
 * `medium` upstream, so the gateway lists its 16 × 233 KB tools (3.7 MB: under every bound, so kept) itself: 75 MB of
 * definitions in all, ten times the tool cache's 8 MiB, so the caches end at their caps. The gateway's own listing,
 * not the client's: no 3.7 MB answer goes back through wrangler's dev proxy, which spends ~0.5 s of CPU relaying one.
 */
export const fillerSessions = 20;

/** Fills the isolate's caches to their caps (see `fillerSessions`); returns how many requests were answered. */
export async function fillCaches(url: string): Promise<number> {
  for (let i = 0; i < fillerSessions; i++) {
    const session = await openSession(url, 'medium');
    await mcp(url, 'medium', { method: 'tools/call', params: { name: 'nowhere', arguments: {} } }, session);
  }
  return 2 * fillerSessions;
}

/**
 * Opens a real session as credential `token`: an `initialize` the list upstream answers with an id of its own,
 * which the gateway hands out sealed to that credential (the only kind of id it takes back). Returns the sealed id.
 */
export async function openSession(url: string, token: string): Promise<string> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bounds', version: '1.0.0' } };
  const { body, headers } = mcpRequest(token, { method: 'initialize', params });
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  const sealed = response.headers.get('mcp-session-id');
  if (sealed === null) throw new Error(`initialize got no session id (HTTP ${response.status}: ${text.slice(0, 200)})`);
  return sealed;
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The body and headers of one JSON-RPC request to /mcp as a 2025-11-25 client with credential `token` (and a session id, forged or not). */
export function mcpRequest(
  token: string,
  message: { method: string; params?: unknown },
  session?: string,
): { body: unknown; headers: Record<string, string> } {
  return {
    body: { jsonrpc: '2.0', id: rpcId++, ...message },
    headers: {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
      ...(session === undefined ? {} : { 'mcp-session-id': session }),
    },
  };
}

function mcp(url: string, token: string, message: { method: string; params?: unknown }, session?: string): Promise<number> {
  const { body, headers } = mcpRequest(token, message, session);
  return post(url, '/mcp', body, headers);
}

/**
 * The shapes of every test of wrangler-bounds.test.ts, in its order, then `fillCaches`; returns how many requests
 * were answered. The gateway-cache shapes are sent as the attack sends them, under forged session ids (each now a
 * 404); the same lists in sessions opened by `initialize` run once, in the tests.
 */
export async function hostileRound(url: string, round: string): Promise<number> {
  let sent = 0;
  const validate = async (input: { schema: unknown; instance: unknown }) => {
    await post(url, '/v1/validate', { schema: input.schema, instance: input.instance });
    sent++;
  };
  for (const input of patternBodies()) await validate(input);
  for (const key of Object.keys(bigPrograms) as (keyof typeof bigPrograms)[]) {
    await mcp(url, 'patterns', { method: 'tools/list' });
    await mcp(url, 'patterns', {
      method: 'tools/call',
      params: { name: `pattern-${key}`, arguments: { text: patternArgument(key).text } },
    });
    sent += 2;
  }
  await validate(longPointerBody());
  for (let seed = 0; seed < 40; seed++) await validate(distinctPointerBody(seed));
  for (let i = 0; i < 40; i++) {
    await mcp(url, 'bulky', { method: 'tools/list' }, `forged-${round}-${i}-${'f'.repeat(16)}`);
    sent++;
  }
  for (let i = 0; i < 10; i++) {
    await mcp(url, 'bulky', { method: 'tools/call', params: { name: 'nowhere', arguments: {} } }, `forged-call-${round}-${i}`);
    sent++;
  }
  for (const input of multiplierBodies()) await validate(input);
  for (let i = 0; i < 10; i++) {
    await mcp(url, 'long', { method: 'tools/list' }, `forged-long-${round}-${i}`);
    sent++;
  }
  await mcp(url, 'tiny', { method: 'tools/list' });
  await mcp(url, 'tiny', { method: 'tools/call', params: { name: 'tiny-9999', arguments: { n: 1 } } });
  return sent + 2 + (await fillCaches(url));
}
