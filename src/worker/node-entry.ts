// Node worker_threads entry: the engine behind Comlink's node adapter; the data lane is listened to with
// `port.on('message')`, Node's cheaper path (no MessageEvent per message), and polled for a short while after each
// answer (SpawnNodeWorkerOptions.idleSpinMicros, docs/decisions/013-idle-spin.md).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { createWorkerApi } from './create-worker-api.ts';
import { nodeHashText } from './node-hash.ts';
import { idleSpinMs, listenWithSpin } from './spin-lane.ts';

if (parentPort === null) throw new Error('node-entry.ts must run in a worker thread');
expose(createWorkerApi({ hashText: nodeHashText }, listenWithSpin(idleSpinMs(workerData), receiveMessageOnPort)), nodeEndpoint(parentPort));
