#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npx schemaval` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const { nodeIo } = await import('../src/cli/node-io.ts');
try {
  process.exitCode = await main(process.argv.slice(2), nodeIo());
} catch (error) {
  process.stderr.write(`schemaval: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 2;
}
