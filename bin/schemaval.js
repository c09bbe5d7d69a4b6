#!/usr/bin/env node
// Runs the built CLI: dist/cli.js, one esbuild bundle (docs/decisions/012-build-and-package.md), so a start reads
// one file and needs no TypeScript loader. A clone has no dist/ until `npm run build`: there the CLI runs from its
// TypeScript sources through tsx (a devDependency), so the README's commands work right after `npm install`.
import { existsSync } from 'node:fs';

const cli = await loadCli();
try {
  process.exitCode = await cli.main(process.argv.slice(2), cli.nodeIo());
} catch (error) {
  process.stderr.write(`schemaval: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 2;
}

/** The built CLI, or in a clone without a build the sources under tsx; exits 2 when neither can run. */
async function loadCli() {
  try {
    return await import('../dist/cli.js');
  } catch (error) {
    if (!isMissing(error, 'dist/cli.js')) throw error;
  }
  // The tarball ships dist/ and no src/: only a clone (or a broken install) gets here.
  if (!existsSync(new URL('../src/cli/main.ts', import.meta.url))) fail('dist/cli.js is missing: reinstall schemaval');
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch (error) {
    if (!isMissing(error, 'tsx')) throw error;
    fail('dist/cli.js is missing and tsx is not installed: run `npm install` (or `npm run build`) in the clone');
  }
  // Registered for this thread only; the CLI's worker registers tsx itself (src/worker/node-bootstrap.mjs).
  tsx.register();
  const [{ main }, { nodeIo }] = await Promise.all([import('../src/cli/main.ts'), import('../src/cli/node-io.ts')]);
  return { main, nodeIo };
}

function isMissing(error, name) {
  const code = error?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error.message).includes(name);
}

function fail(message) {
  process.stderr.write(`schemaval: ${message}\n`);
  process.exit(2);
}
