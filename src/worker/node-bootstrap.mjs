// Node 20 cannot start a worker from a .ts file; register tsx in the worker, then load the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./node-entry.ts');
