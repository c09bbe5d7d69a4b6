// Node worker_threads entry: the engine behind Comlink's node adapter.
import { parentPort, workerData } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createWorkerApi } from './create-worker-api.ts';

if (parentPort === null) throw new Error('node-entry.ts must run in a worker thread');
expose(createWorkerApi(workerData ?? {}), nodeEndpoint(parentPort));
