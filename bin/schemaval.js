#!/usr/bin/env node
// Runs the built CLI: dist/cli.js, one esbuild bundle (docs/decisions/012-build-and-package.md), so a start reads
// one file and needs no TypeScript loader. In a clone, `npm run build` makes it (`npm test` does for its tests).
let cli;
try {
  cli = await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js')) throw error;
  process.stderr.write('schemaval: dist/cli.js is missing: run `npm run build` first (a clone has no built files)\n');
  process.exit(2);
}
try {
  process.exitCode = await cli.main(process.argv.slice(2), cli.nodeIo());
} catch (error) {
  process.stderr.write(`schemaval: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 2;
}
