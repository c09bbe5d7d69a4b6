// The request after a refusal (issue #17 item 3): whenever the Worker refuses a body it has not read (413 by
// Content-Length or while streaming, 415, 403 allow-list), the next request through `wrangler dev` must still be
// answered. A Worker that cancelled such a body made wrangler's proxy lose its connection: the next request got
// 503 "Your worker restarted mid-request", or waited seconds to a minute. Raw node:http, so nothing sends
// `Expect: 100-continue` (but one case, sent as curl sends it) and the whole body is on its way when the refusal
// comes. A 404 whose body no route reads is the control: a body left unread (not cancelled) never broke the proxy.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev.ts';

/** Rounds per refusal: each is a refused body followed by a normal request. */
const rounds = 15;
/** The issue's own bound: the request after a refusal is answered within a second. */
const maxAnswerMs = 1000;

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly ms: number;
}

interface Send {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** The body, written in 64 KiB pieces; with `chunked`, without a Content-Length. */
  readonly body?: Uint8Array;
  readonly chunked?: boolean;
  /**
   * As curl sends a body over 1 MiB: `Expect: 100-continue`, then the body once the server says 100 Continue or
   * after 1 s without a word; a final answer first and the body is never sent (the connection is closed).
   */
  readonly expectContinue?: boolean;
}

/**
 * One request over `agent`; resolves with the answer even when the server stops reading the upload early, and with
 * status 0 when the connection failed before any answer (a reset is a wrong answer, not a test error).
 */
function send(url: string, agent: Agent, options: Send): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const failed = (error: Error) => resolve({ status: 0, body: `no answer: ${error.message}`, ms: performance.now() - started });
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined && options.chunked !== true) headers['content-length'] = String(options.body.byteLength);
    if (options.expectContinue === true) headers.expect = '100-continue';
    const req = request(`${url}${options.path}`, { method: options.method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started });
        // curl closes a connection whose body it never sent.
        if (options.expectContinue === true && !sending) req.destroy();
      });
      res.on('error', failed);
    });
    let answered = false;
    req.on('response', () => {
      answered = true;
    });
    // The server may answer and stop reading before the upload ends: a write error then changes nothing.
    req.on('error', (error) => {
      if (!answered) failed(error);
    });
    req.setTimeout(60_000, () => req.destroy(new Error('no answer within 60 s')));
    const body = options.body;
    if (body === undefined) {
      req.end();
      return;
    }
    const piece = 64 * 1024;
    let offset = 0;
    let sending = options.expectContinue !== true;
    const write = (): void => {
      sending = true;
      while (offset < body.byteLength) {
        const chunk = body.subarray(offset, offset + piece);
        offset += chunk.byteLength;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    if (sending) {
      write();
      return;
    }
    req.flushHeaders();
    const wait = setTimeout(write, 1000);
    req.once('continue', () => {
      clearTimeout(wait);
      write();
    });
    req.once('response', () => clearTimeout(wait));
  });
}

/** A JSON-shaped body of `bytes` bytes (a long string), so only its size is wrong. */
function bigJson(bytes: number): Uint8Array {
  const text = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(Math.max(0, bytes - 60))}"}}`;
  return new TextEncoder().encode(text);
}

const twoMiB = bigJson(2 * 1024 * 1024);
const fiveMiB = bigJson(5 * 1024 * 1024);
const small = JSON.stringify({ schema: { type: 'integer' }, instance: 7 });

/** What the Worker must answer to each refused body. */
const refusals: readonly { readonly name: string; readonly send: Send; readonly status: number; readonly code: string }[] = [
  {
    name: 'a 2 MiB /v1/validate body over the limit by Content-Length (413)',
    send: { method: 'POST', path: '/v1/validate', headers: { 'content-type': 'application/json' }, body: twoMiB },
    status: 413,
    code: 'body_too_large',
  },
  {
    name: 'a 2 MiB /v1/validate body over the limit sent as curl sends it, with Expect: 100-continue (413)',
    send: { method: 'POST', path: '/v1/validate', headers: { 'content-type': 'application/json' }, body: twoMiB, expectContinue: true },
    status: 413,
    code: 'body_too_large',
  },
  {
    name: 'a 2 MiB chunked /v1/validate body, over the limit while streaming (413)',
    send: { method: 'POST', path: '/v1/validate', headers: { 'content-type': 'application/json' }, body: twoMiB, chunked: true },
    status: 413,
    code: 'body_too_large',
  },
  {
    name: 'a 2 MiB /mcp body that is not application/json (415)',
    send: { method: 'POST', path: '/mcp', headers: { 'content-type': 'text/plain' }, body: twoMiB },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a 2 MiB /mcp body for an upstream not on the allow-list (403)',
    send: {
      method: 'POST',
      path: `/mcp?upstream=${encodeURIComponent('https://evil.test/mcp')}`,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: twoMiB,
    },
    status: 403,
    code: 'upstream_not_allowed',
  },
  {
    name: 'a 5 MiB /mcp message over its 4 MiB limit (413)',
    send: { method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, body: fiveMiB, chunked: true },
    status: 413,
    code: 'message_too_large',
  },
  {
    name: 'a 2 MiB body to a path that has no route, left unread (404)',
    send: { method: 'POST', path: '/v1/nothing-here', headers: { 'content-type': 'application/json' }, body: twoMiB },
    status: 404,
    code: 'not_found',
  },
];

/** `error.code` of an HTTP API error or `error.data.code` of a JSON-RPC one. */
function codeOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; data?: { code?: unknown } } };
    const code = parsed.error?.data?.code ?? parsed.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

describe('the request after a refused body, under wrangler dev (real workerd and its proxy)', () => {
  let dev: WranglerDev;

  before(async () => {
    // Nothing listens there: every /mcp request of this test is refused before any fetch.
    dev = await startWranglerDev({ UPSTREAM_MCP_URL: 'http://127.0.0.1:9/mcp' });
  });

  after(async () => {
    await dev?.stop();
  });

  for (const refusal of refusals) {
    it(`answers the next request after ${refusal.name}, ${rounds} times out of ${rounds}`, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const wrong: string[] = [];
      try {
        for (let round = 0; round < rounds; round++) {
          const refused = await send(dev.url, agent, refusal.send);
          if (refused.status !== refusal.status || codeOf(refused.body) !== refusal.code) {
            wrong.push(`round ${round} refusal: ${refused.status} ${refused.body.slice(0, 120)}`);
          }
          const next =
            round % 2 === 0
              ? await send(dev.url, agent, {
                  method: 'POST',
                  path: '/v1/validate',
                  headers: { 'content-type': 'application/json' },
                  body: new TextEncoder().encode(small),
                })
              : await send(dev.url, agent, { method: 'GET', path: '/healthz' });
          const expected = round % 2 === 0 ? '{"status":"valid"}' : undefined;
          const right = next.status === 200 && (expected === undefined ? JSON.parse(next.body).ok === true : next.body === expected);
          if (!right || next.ms > maxAnswerMs) {
            wrong.push(`round ${round} next: ${next.status} after ${next.ms.toFixed(0)} ms ${next.body.slice(0, 120)}`);
          }
        }
      } finally {
        agent.destroy();
      }
      assert.deepEqual(wrong, [], `${wrong.length} wrong answers in ${rounds} rounds`);
    });
  }

  it('never saw the Worker restart', () => {
    assert.doesNotMatch(dev.log(), /restarted mid-request/i);
  });
});
