// The Worker's V8 heap under `wrangler dev`, read over workerd's inspector (edge/dev.mjs opens it on 127.0.0.1 and
// prints its port). A heap snapshot forces a full GC first (workerd does not answer `HeapProfiler.collectGarbage`),
// so the heap read after it is what the Worker truly retains: its caches, not garbage waiting for a collection.
import { createRequire } from 'node:module';

/** The little of the `ws` package (miniflare's, so present wherever wrangler is) this helper uses. */
interface Socket {
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer | string) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  send(text: string): void;
  close(): void;
}
type SocketClass = new (url: string, options?: { maxPayload?: number }) => Socket;

export interface WorkerHeap {
  /** Bytes of live objects (`Runtime.getHeapUsage` usedSize) right after a full GC. */
  readonly used: number;
  /** Bytes V8 has committed for the heap (totalSize). */
  readonly total: number;
}

/** The inspector's port, from the line edge/dev.mjs prints when it starts wrangler. */
export function inspectorPort(log: string): number | undefined {
  const port = /\(inspector 127\.0\.0\.1:(\d+)\)/.exec(log)?.[1];
  return port === undefined ? undefined : Number(port);
}

/**
 * Forces a full GC in the Worker's isolate (a heap snapshot, its chunks discarded) and returns its heap usage then.
 * Undefined when no inspector target answers.
 */
export async function workerHeapAfterGc(port: number, timeoutMs = 30_000, attempts = 3): Promise<WorkerHeap | undefined> {
  // The inspector sometimes leaves a session unanswered (a previous one not yet detached): ask again on a new one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await heapOnce(port, timeoutMs);
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

async function heapOnce(port: number, timeoutMs: number): Promise<WorkerHeap | undefined> {
  const targets = (await fetch(`http://127.0.0.1:${port}/json/list`).then(
    (response) => response.json(),
    () => [],
  )) as { webSocketDebuggerUrl?: string; title?: string }[];
  const url = targets.find((target) => target.webSocketDebuggerUrl !== undefined)?.webSocketDebuggerUrl;
  if (url === undefined) return undefined;
  const WebSocket = createRequire(import.meta.url)('ws') as SocketClass;
  const socket = new WebSocket(url, { maxPayload: 1024 * 1024 * 1024 });
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  const done = new Promise<WorkerHeap>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the inspector did not answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown> };
      if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? {});
    });
    socket.on('open', () => {
      void (async () => {
        // The snapshot's chunks arrive as events and are dropped: only the GC before it matters here.
        await call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
        const usage = await call('Runtime.getHeapUsage');
        clearTimeout(timer);
        resolve({ used: Number(usage.usedSize ?? 0), total: Number(usage.totalSize ?? 0) });
      })().catch(reject);
    });
  });
  try {
    return await done;
  } finally {
    socket.close();
  }
}
