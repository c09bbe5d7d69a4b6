// A hostile MCP upstream (2025-11-25 Streamable HTTP) written on raw node:http, so it can send what no SDK server
// would: string ids, duplicate keys, wrong content types, cut-off bodies, hangs, huge bodies, endless pages. It is
// well-behaved enough for a real SDK v1 Client to initialize through a gateway; how it misbehaves is chosen by the
// credential (`tools/list`) and by the tool (`tools/call`). Everything it receives is recorded, so a test can assert
// what never reached it.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isJsonObject } from '../../src/engine/json/index.ts';

/** Appears only in bytes a checking gateway must never relay: find it in a response and something leaked. */
export const canary = 'HOSTILE-CANARY-5d1f';

/** How `tools/list` misbehaves for the credential `Bearer list:<mode>` (`Bearer alice` / `Bearer mallory` list honestly). */
export const listModes = [
  'string-id', // the answer's id is "7" for 7, and the list carries a refused tool
  'dup-json', // a JSON body whose `result` key appears twice (the second holds a refused tool)
  'dup-sse', // the same, inside an SSE `data:` line
  'text-plain', // a good answer labelled Content-Type: text/plain
  'truncated', // Content-Length promises the whole answer; half arrives, then the socket closes
  'sse-cut', // an SSE stream that ends in the middle of its event
  'hang', // never answers, not even headers
  'huge', // a 50 MB answer, streamed
  'forever', // every page has a nextCursor
  'error-500', // 500 with {"error": …}, not JSON-RPC
  'empty-stream', // 200 text/event-stream that ends with no event
] as const;
export type ListMode = (typeof listModes)[number];

/** Tools whose `tools/call` misbehaves (each is in Alice's list, with a harmless input schema). */
export const hostileTools = [
  'string-id-output', // id "N" for N, structuredContent that fails outputSchema
  'dup-json',
  'dup-sse',
  'text-plain',
  'truncated',
  'sse-cut',
  'hang',
  'hang-sse', // SSE headers, then silence
  'huge-json', // a 50 MB JSON body, streamed
  'huge-sse', // one 50 MB SSE event, streamed
  'error-500',
  'error-502-text', // 502 text/plain
  'empty-stream',
  'elicit-bad', // elicitation/create with a schema outside the form subset
  'elicit-dup', // elicitation/create whose data line holds a duplicate key (the second requestedSchema is outside the subset)
  'elicit-good', // elicitation/create with a subset form; the call's result reports the answer that arrived
] as const;
export type HostileTool = (typeof hostileTools)[number];

/** Size of every huge body the upstream starts to send. */
export const hugeBytes = 50 * 1024 * 1024;

/** Tool definitions as sent (Alice's `transfer` caps `amount` at 100; Mallory's allows anything). */
export function toolsFor(user: 'alice' | 'mallory'): Record<string, unknown>[] {
  const transfer = {
    name: 'transfer',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, amount: user === 'alice' ? { type: 'number', maximum: 100 } : { type: 'number' } },
      required: ['to', 'amount'],
    },
  };
  if (user === 'mallory') return [transfer];
  return [
    transfer,
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    ...hostileTools.map((name) => ({
      name,
      inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
      ...(name === 'string-id-output'
        ? { outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] } }
        : {}),
    })),
  ];
}

/** A tool a schema policy refuses (remote $ref); its description carries the canary. */
export const refusedTool = {
  name: 'refused-remote',
  description: `${canary} refused tool`,
  inputSchema: { type: 'object', properties: { p: { $ref: 'https://schemas.example.com/p.json' } } },
};

/** The elicitation form outside the spec subset (a nested object). */
export const nonSubsetForm = {
  type: 'object',
  properties: { address: { type: 'object', properties: { street: { type: 'string' } }, description: canary } },
};

/** A form inside the subset. */
export const subsetForm = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
};

/** One HTTP request the upstream received. */
export interface Received {
  readonly method: string;
  /** The Authorization header, or "" */
  readonly authorization: string;
  readonly sessionId: string | undefined;
  /** The body as text ("" for GET/DELETE). */
  readonly body: string;
  /** The body parsed by JSON.parse, or undefined when it is not JSON. */
  readonly message: unknown;
}

export interface HostileUpstream {
  readonly received: readonly Received[];
  /** The JSON-RPC messages received with this method (requests and notifications), optionally from one credential. */
  requests(method: string, authorization?: string): Record<string, unknown>[];
  /** The JSON-RPC responses received (answers to the upstream's own requests, e.g. elicitation/create). */
  responses(): Record<string, unknown>[];
  /** Bytes of huge bodies the upstream managed to write, per tool or list mode. */
  readonly hugeWritten: Map<string, number>;
  /** Serves on 127.0.0.1 and returns the MCP endpoint URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const rpc = (id: unknown, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result });
const sse = (data: string): string => `event: message\ndata: ${data}\n\n`;
/** Replaces the closing brace of a JSON object with `,"key":<value>}`: a duplicate key where JSON.parse keeps the last. */
const withDuplicate = (json: string, key: string, value: unknown): string =>
  `${json.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;

/** Creates the upstream; nothing listens until `listen()`. */
export function createHostileUpstream(): HostileUpstream {
  const received: Received[] = [];
  const hugeWritten = new Map<string, number>();
  const sessions = new Set<string>();
  /** Elicitations in flight: the id the upstream sent → who waits for the answer. */
  const waiting = new Map<string, (answer: Json) => void>();
  const sockets = new Set<Socket>();
  let nextElicitation = 0;
  let nextSession = 0;

  const json = (res: ServerResponse, status: number, body: string, type = 'application/json'): void => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  /** A status with no body and no content type (202 for notifications, 405 for GET). */
  const empty = (res: ServerResponse, status: number): void => {
    res.writeHead(status, { 'content-length': 0 });
    res.end();
  };
  const openSse = (res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
  };

  /** Streams `prefix`, then filler up to `hugeBytes`, then `suffix`, honouring backpressure; stops when the peer goes. */
  const streamHuge = async (res: ServerResponse, label: string, prefix: string, suffix: string): Promise<void> => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    const closed = once(res, 'close').then(() => 'closed' as const);
    res.write(prefix);
    while (written < hugeBytes && !res.destroyed) {
      written += chunk.length;
      hugeWritten.set(label, written);
      if (!res.write(chunk)) {
        const why = await Promise.race([once(res, 'drain').then(() => 'drain' as const), closed]);
        if (why === 'closed') return;
      }
    }
    if (!res.destroyed) res.end(suffix);
  };

  /** Answers one `tools/list` request according to the credential. */
  const list = async (res: ServerResponse, id: unknown, authorization: string, params: Json | undefined): Promise<void> => {
    const token = authorization.replace(/^Bearer\s+/i, '').replace(/\+session$/, '');
    if (token === 'alice' || token === 'mallory') return json(res, 200, rpc(id, { tools: toolsFor(token) }));
    const mode = token.startsWith('list:') ? (token.slice(5) as ListMode) : undefined;
    const honest = { tools: [...toolsFor('alice'), refusedTool] };
    const accepted = { tools: toolsFor('alice') };
    switch (mode) {
      case 'string-id':
        return json(res, 200, rpc(typeof id === 'number' ? String(id) : id, honest));
      case 'dup-json':
        return json(res, 200, withDuplicate(rpc(id, accepted), 'result', honest));
      case 'dup-sse':
        openSse(res);
        res.end(sse(withDuplicate(rpc(id, accepted), 'result', honest)));
        return;
      case 'text-plain':
        return json(res, 200, rpc(id, honest), 'text/plain');
      case 'truncated':
        return truncate(res, rpc(id, honest));
      case 'sse-cut':
        openSse(res);
        res.end(sse(rpc(id, honest)).slice(0, 200));
        return;
      case 'hang':
        return; // the socket stays open until the peer gives up or the server closes
      case 'huge':
        res.writeHead(200, { 'content-type': 'application/json' });
        return streamHuge(
          res,
          'list:huge',
          `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[],"_meta":{"pad":"${canary}`,
          '"}}}',
        );
      case 'forever': {
        const page = Number(params?.cursor ?? 0);
        return json(
          res,
          200,
          rpc(id, { tools: [{ name: `page-${page}`, inputSchema: { type: 'object' } }], nextCursor: String(page + 1) }),
        );
      }
      case 'error-500':
        return json(res, 500, JSON.stringify({ error: `${canary} internal error` }));
      case 'empty-stream':
        openSse(res);
        res.end();
        return;
      default:
        return json(res, 200, rpc(id, { tools: [] }));
    }
  };

  /** Sends part of a body whose Content-Length promises all of it, then drops the connection. */
  const truncate = (res: ServerResponse, body: string): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.write(body.slice(0, Math.floor(body.length / 2)));
    setTimeout(() => res.socket?.destroy(), 50);
  };

  /** Sends an elicitation/create on the call's SSE stream and waits (up to 10 s) for its answer. */
  const elicit = async (res: ServerResponse, data: (elicitationId: number) => string): Promise<Json | undefined> => {
    const elicitationId = 1000 + nextElicitation++;
    openSse(res);
    const answered = new Promise<Json | undefined>((resolve) => {
      waiting.set(String(elicitationId), resolve);
      setTimeout(() => resolve(undefined), 10_000).unref();
      res.once('close', () => resolve(undefined));
    });
    res.write(sse(data(elicitationId)));
    const answer = await answered;
    waiting.delete(String(elicitationId));
    return answer;
  };

  /** Answers one `tools/call` request according to the tool. */
  const call = async (res: ServerResponse, id: unknown, params: Json | undefined): Promise<void> => {
    const name = String(params?.name ?? '');
    const leak = { content: [{ type: 'text', text: `${canary} from ${name}` }] };
    const fine = {
      content: [{ type: 'text', text: `ok from ${name}` }],
      ...(name === 'transfer' ? { structuredContent: { ok: true } } : {}),
    };
    switch (name as HostileTool) {
      case 'string-id-output':
        return json(res, 200, rpc(typeof id === 'number' ? String(id) : id, { ...leak, structuredContent: { temperature: 'hot' } }));
      case 'dup-json':
        return json(res, 200, withDuplicate(rpc(id, fine), 'result', leak));
      case 'dup-sse':
        openSse(res);
        res.end(sse(withDuplicate(rpc(id, fine), 'result', leak)));
        return;
      case 'text-plain':
        return json(res, 200, rpc(id, leak), 'text/plain');
      case 'truncated':
        return truncate(res, rpc(id, { content: [{ type: 'text', text: `${canary}`.repeat(20) }] }));
      case 'sse-cut':
        openSse(res);
        res.end(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"${canary}`);
        return;
      case 'hang':
        return;
      case 'hang-sse':
        openSse(res);
        return;
      case 'huge-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return streamHuge(
          res,
          name,
          `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"${canary}`,
          '"}]}}',
        );
      case 'huge-sse':
        openSse(res);
        return streamHuge(
          res,
          name,
          `event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"${canary}`,
          '"}]}}\n\n',
        );
      case 'error-500':
        return json(res, 500, JSON.stringify({ error: `${canary} internal error` }));
      case 'error-502-text':
        return json(res, 502, `${canary} bad gateway`, 'text/plain');
      case 'empty-stream':
        openSse(res);
        res.end();
        return;
      case 'elicit-bad':
      case 'elicit-dup':
      case 'elicit-good': {
        const answer = await elicit(res, (elicitationId) => {
          const request = (requestedSchema: unknown) =>
            JSON.stringify({
              jsonrpc: '2.0',
              id: elicitationId,
              method: 'elicitation/create',
              params: { mode: 'form', message: 'Who?', requestedSchema },
            });
          if (name === 'elicit-bad') return request(nonSubsetForm);
          if (name === 'elicit-dup') return withDuplicate(request(subsetForm).slice(0, -1), 'requestedSchema', nonSubsetForm).concat('}');
          return request(subsetForm);
        });
        if (!res.destroyed) res.end(sse(rpc(id, { content: [{ type: 'text', text: JSON.stringify(answer ?? null) }] })));
        return;
      }
      default:
        return json(res, 200, rpc(id, fine));
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const authorization = req.headers.authorization ?? '';
    const sessionId = typeof req.headers['mcp-session-id'] === 'string' ? req.headers['mcp-session-id'] : undefined;
    let message: unknown;
    try {
      message = body === '' ? undefined : JSON.parse(body);
    } catch {
      message = undefined;
    }
    received.push({ method: req.method ?? '', authorization, sessionId, body, message });

    if (req.method === 'GET') return empty(res, 405);
    if (req.method === 'DELETE') {
      if (sessionId !== undefined) sessions.delete(sessionId);
      return empty(res, 200);
    }
    if (req.method !== 'POST') return empty(res, 405);
    if (!isJsonObject(message))
      return json(res, 400, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
    // A sloppy upstream: it checks that a session exists, never whose it is (so a forged id reaches someone's session).
    const wantsSession = authorization.endsWith('+session');
    if (message.method !== 'initialize' && wantsSession && (sessionId === undefined || !sessions.has(sessionId))) {
      return json(res, 404, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'session not found' } }));
    }
    if (!('method' in message)) {
      // The answer to one of our elicitations (or a refusal the gateway sent in the client's place).
      const key = typeof message.id === 'number' || typeof message.id === 'string' ? String(message.id) : '';
      waiting.get(key)?.(message);
      return empty(res, 202);
    }
    if (!('id' in message)) return empty(res, 202); // a notification
    const params = isJsonObject(message.params) ? message.params : undefined;
    switch (message.method) {
      case 'initialize': {
        const asked = String(params?.protocolVersion ?? '');
        const version = ['2025-11-25', '2025-06-18', '2025-03-26'].includes(asked) ? asked : '2025-11-25';
        const result = { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1.0.0' } };
        if (wantsSession) {
          const id = `hostile-session-${nextSession++}`;
          sessions.add(id);
          res.setHeader('mcp-session-id', id);
        }
        return json(res, 200, rpc(message.id, result));
      }
      case 'tools/list':
        return list(res, message.id, authorization, params);
      case 'tools/call':
        return call(res, message.id, params);
      default:
        return json(res, 200, rpc(message.id, {}));
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const messages = () => received.map((r) => r.message).filter(isJsonObject);
  return {
    received,
    hugeWritten,
    requests: (method, authorization) =>
      received
        .filter((r) => authorization === undefined || r.authorization === authorization)
        .map((r) => r.message)
        .filter(isJsonObject)
        .filter((m) => m.method === method),
    responses: () => messages().filter((m) => !('method' in m) && ('result' in m || 'error' in m)),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    },
    async close() {
      for (const resolve of waiting.values()) resolve({});
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
