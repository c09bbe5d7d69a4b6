// Section 4's floor: a worker_threads worker that posts every message straight back, nothing else.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (message) => parentPort.postMessage(message));
