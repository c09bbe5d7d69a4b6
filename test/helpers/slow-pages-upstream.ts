// The fixture upstream served on 127.0.0.1 with one tool per tools/list page, each page after the first (its
// request carries a cursor) held back by `delayMs()`: what the CLI's progress and timeout tests list against.
import { setTimeout as sleep } from 'node:timers/promises';
import { type ServedHandler, serveFetchHandler } from '../../examples/serve-fetch-handler.ts';
import { createUpstream } from './http-upstream.ts';

export interface SlowPages {
  readonly url: string;
  close(): Promise<void>;
}

export async function serveSlowPages(delayMs: () => number): Promise<SlowPages> {
  const upstream = createUpstream({ pageSize: 1, json: true });
  const served: ServedHandler = await serveFetchHandler(async (request) => {
    if (request.method === 'POST' && (await request.clone().text()).includes('"cursor"')) await sleep(delayMs());
    return upstream.handle(request);
  });
  return {
    url: `${served.origin}/mcp`,
    close: async () => {
      await served.close();
      await upstream.close();
    },
  };
}
