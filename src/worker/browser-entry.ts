// Browser module Worker entry: the engine behind Comlink. No Node-only import may reach this file.
import { expose } from 'comlink';
import { createWorkerApi } from './create-worker-api.ts';

expose(createWorkerApi());
