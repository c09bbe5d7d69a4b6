// Node worker_threads entry: the engine behind Comlink's node adapter; the data lane is listened to with
// `port.on('message')`, Node's cheaper path (no MessageEvent per message).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createWorkerApi } from './create-worker-api.ts';

if (parentPort === null) throw new Error('node-entry.ts must run in a worker thread');
expose(
  createWorkerApi(workerData ?? {}, (lane, onMessage) => {
    (lane as unknown as MessagePort).on('message', onMessage);
  }),
  nodeEndpoint(parentPort),
);
