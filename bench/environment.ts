// The header of the report: runtime, machine and the versions of the libraries compared.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { copyJson } from '../src/engine/json/copy-json.ts';

const packages = ['@cfworker/json-schema', 'ajv', 'ajv-formats', '@modelcontextprotocol/sdk', '@hyperjump/json-schema'];

/** One line per fact, for reading results from another machine in context. */
export function describeEnvironment(): string {
  const cores = cpus();
  const versions = packages.map((name) => `${name} ${packageVersion(name)}`).join(', ');
  return [
    `node ${process.version} ${process.platform}/${process.arch}, ${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}`,
    versions,
    ...(keepsNames()
      ? [
          'transpiled with esbuild keepNames (tsx): every inner function the engine creates per call also pays a __name() ' +
            'call (Object.defineProperty), which a bundle built without keepNames does not',
        ]
      : []),
  ].join('\n');
}

function packageVersion(name: string): string {
  try {
    const text = readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8');
    return String((JSON.parse(text) as { version?: unknown }).version);
  } catch {
    return '(not found)';
  }
}

/** True when the engine's source was transpiled with esbuild's keepNames, as tsx does. */
function keepsNames(): boolean {
  return copyJson.toString().includes('__name(');
}
