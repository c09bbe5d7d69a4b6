// Serves a fetch-style handler (Request → Response, streaming bodies included) with node:http on 127.0.0.1.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedHandler {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** TCP connections accepted so far (a client that reuses its connections keeps this small). */
  connections(): number;
  close(): Promise<void>;
}

export async function serveFetchHandler(handle: (request: Request) => Promise<Response>, port = 0): Promise<ServedHandler> {
  const http = createServer((req, res) => {
    relay(handle, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  let connections = 0;
  http.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    connections: () => connections,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function relay(handle: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const response = await handle(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers, body }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}
