// Section 4: the floor plus Comlink, exposed the way src/worker/node-entry.ts exposes the engine.
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';

expose(
  {
    echo(value) {
      return value;
    },
  },
  nodeEndpoint(parentPort),
);
