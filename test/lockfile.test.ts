// The lockfile says what package.json says. `npm ci` installs from a lockfile whose root entry disagrees with the
// manifest on peer metadata without a word, but the README's `npm install` then rewrites package-lock.json, so a fresh
// clone ends its set-up with a modified tree. These checks catch that drift before a clone does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

type Deps = Record<string, string>;
interface Manifest {
  name: string;
  version: string;
  license?: string;
  bin?: Record<string, string>;
  engines?: Deps;
  dependencies?: Deps;
  devDependencies?: Deps;
  optionalDependencies?: Deps;
  peerDependencies?: Deps;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
interface Lockfile {
  name: string;
  version: string;
  lockfileVersion: number;
  packages: Record<string, Manifest & { version: string }>;
}

const repo = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${repo}package.json`, 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(`${repo}package-lock.json`, 'utf8')) as Lockfile;
const root = lock.packages[''];

/** The fields npm copies from package.json into the lockfile's root entry. */
const copied = [
  'name',
  'version',
  'license',
  'bin',
  'engines',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
] as const;

describe('package-lock.json', () => {
  it('is lockfile version 3 for this package', () => {
    assert.equal(lock.lockfileVersion, 3);
    assert.equal(lock.name, manifest.name);
    assert.equal(lock.version, manifest.version);
    assert.ok(root, 'the lockfile has a root entry');
  });

  for (const field of copied) {
    it(`its root entry has package.json's ${field}`, () => {
      assert.deepEqual(root?.[field], manifest[field], `run \`npm install --package-lock-only\` and commit the lockfile`);
    });
  }

  it('locks each exact pin at its own version', () => {
    const pinned = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }).filter(([, range]) =>
      /^\d+\.\d+\.\d+$/.test(range),
    );
    assert.ok(pinned.length > 0, 'the dev tools are pinned exactly');
    for (const [name, version] of pinned) {
      assert.equal(lock.packages[`node_modules/${name}`]?.version, version, `${name} is locked at ${version}`);
    }
  });
});
