// The demo page's module Worker (scripts/build-page.mjs builds it, without re2js linked in): browser-entry.ts, but
// the linear-time matcher is a chunk of its own, imported before the first request with a pattern runs, so a visit
// downloads it only when a schema needs it. No Node-only import may reach this file.
import { expose } from 'comlink';
import { createWorkerApi } from './create-worker-api.ts';
import { listenPatternsFirst } from './patterns-first-lane.ts';

const loadPatterns = async (): Promise<void> => (await import('../engine/patterns/index.ts')).installRe2();

expose(createWorkerApi({}, listenPatternsFirst(loadPatterns)));
