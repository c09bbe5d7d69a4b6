#!/usr/bin/env node
// Regenerates test/fixtures/real-world/servers/: the raw tools/list results of MCP server packages published on npm
// (issue 20, item 5). A maintenance script, not run by tests: it needs the npm registry and runs third-party code.
//
// Each package is installed at its pinned version into its own scratch directory under --scratch (default
// /tmp/corpus) with `npm install --no-audit --no-fund --ignore-scripts`, started over stdio with a minimal environment
// (PATH, HOME in the scratch directory and dummy API keys; nothing of the caller's environment), and asked
// initialize + every page of tools/list through the SDK's stdio transport directly, so a tool the SDK's strict
// result schema would reject is still recorded exactly as sent. Only packages whose licence permits redistributing
// their tool descriptions (MIT, Apache-2.0, ISC, BSD) are written; the others are reported and left out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { scriptArgs } from './script-args.mjs';

const help = `usage: node scripts/gather-corpus.mjs [--only NAME]... [--scratch DIR] [--date YYYY-MM-DD] [--timeout MS] [--dry-run]

Installs each pinned MCP server package (list inside this script) into DIR/<slug> with
npm install --no-audit --no-fund --ignore-scripts, runs it over stdio with dummy keys and records its raw
tools/list result (all pages) as test/fixtures/real-world/servers/<slug>.json, then rewrites LICENSES.md there.
README.md is maintained by hand: update its counts from the summary this script prints.

options:
  --only NAME      gather only this package (repeatable); other fixtures and their LICENSES.md entries are kept
  --scratch DIR    scratch directory (default /tmp/corpus); HOME of every server is DIR/home
  --date DATE      the gatheredAt date written in each fixture (default: today, UTC)
  --timeout MS     deadline for starting a server and listing its tools (default 20000)
  --dry-run        gather and print the summary, write nothing into the repo
  -h, --help       print this help
`;

/** Licences that permit redistributing the tool descriptions with their notice. */
const REDISTRIBUTABLE = new Set(['MIT', 'Apache-2.0', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD']);

/**
 * The corpus: package, exact version, arguments after its bin, extra environment. `bin` names the bin when the
 * package has several. Dummy keys only: servers that call other hosts cannot reach them, and need not.
 */
const PACKAGES = [
  // The last MIT releases: from 2026 these ship "SEE LICENSE IN LICENSE" and no LICENSE file (see NOT_GATHERED).
  { name: '@modelcontextprotocol/server-filesystem', version: '2025.11.25', args: ['{scratch}/home/allowed'] },
  { name: '@modelcontextprotocol/server-memory', version: '2025.11.25', env: { MEMORY_FILE_PATH: '{scratch}/home/memory.jsonl' } },
  { name: '@modelcontextprotocol/server-everything', version: '2025.9.25', args: ['stdio'] },
  { name: '@modelcontextprotocol/server-sequential-thinking', version: '2025.11.25' },
  { name: '@modelcontextprotocol/server-github', version: '2025.4.8', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'dummy' } },
  { name: '@modelcontextprotocol/server-gitlab', version: '2025.4.25', env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy' } },
  { name: '@modelcontextprotocol/server-slack', version: '2025.4.25', env: { SLACK_BOT_TOKEN: 'xoxb-dummy', SLACK_TEAM_ID: 'T0DUMMY' } },
  { name: '@modelcontextprotocol/server-puppeteer', version: '2025.5.12' },
  { name: '@modelcontextprotocol/server-brave-search', version: '0.6.2', env: { BRAVE_API_KEY: 'dummy' } },
  { name: '@modelcontextprotocol/server-google-maps', version: '0.6.2', env: { GOOGLE_MAPS_API_KEY: 'dummy' } },
  { name: '@modelcontextprotocol/server-postgres', version: '0.6.2', args: ['postgresql://dummy@127.0.0.1:1/dummy'] },
  { name: '@modelcontextprotocol/server-everart', version: '0.6.2', env: { EVERART_API_KEY: 'dummy' } },
  {
    name: '@modelcontextprotocol/server-aws-kb-retrieval',
    version: '0.6.2',
    env: { AWS_ACCESS_KEY_ID: 'dummy', AWS_SECRET_ACCESS_KEY: 'dummy', AWS_REGION: 'us-east-1' },
  },
  { name: '@notionhq/notion-mcp-server', version: '2.5.2', env: { NOTION_TOKEN: 'ntn_dummy' } },
  { name: 'firecrawl-mcp', version: '3.26.0', env: { FIRECRAWL_API_KEY: 'fc-dummy' } },
  { name: 'tavily-mcp', version: '0.2.22', env: { TAVILY_API_KEY: 'tvly-dummy' } },
  { name: 'exa-mcp-server', version: '3.4.1', env: { EXA_API_KEY: 'dummy' } },
  { name: '@upstash/context7-mcp', version: '4.1.1' },
  { name: 'mcp-server-kubernetes', version: '4.1.7' },
  { name: '@playwright/mcp', version: '0.0.83' },
  { name: '@executeautomation/playwright-mcp-server', version: '1.0.12' },
  { name: '@wonderwhy-er/desktop-commander', version: '0.2.52', bin: 'desktop-commander' },
  { name: 'figma-developer-mcp', version: '0.13.2', args: ['--stdio', '--figma-api-key=dummy'] },
  { name: 'mcp-server-code-runner', version: '0.1.8' },
  { name: '@kimtaeyoon83/mcp-server-youtube-transcript', version: '0.1.1' },
];

/** Tried and left out (not gathered by this script), with why: kept so a later pass does not try them blind. */
export const NOT_GATHERED = [
  {
    name: '@modelcontextprotocol/server-{filesystem,memory,everything,sequential-thinking}',
    version: '2026.8.31',
    reason: 'package.json says "SEE LICENSE IN LICENSE" but the package ships no LICENSE file: licence not determinable',
  },
  {
    name: '@modelcontextprotocol/server-redis',
    version: '2025.4.25',
    reason: 'connects to Redis before answering; never lists tools offline',
  },
  {
    name: '@supabase/mcp-server-supabase',
    version: '0.13.0',
    reason: 'tools/list calls the Supabase API (JSON-RPC -32603 "fetch failed")',
  },
  { name: '@stripe/mcp', version: '0.3.3', reason: 'a stdio proxy to https://mcp.stripe.com; --tools was removed; no tools offline' },
  {
    name: '@heroku/mcp-server',
    version: '1.2.8',
    reason: 'exits at start: imports @modelcontextprotocol/sdk/dist/esm/server/mcp, absent from the SDK version npm resolves',
  },
];

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outDir = join(repo, 'test/fixtures/real-world/servers');

/** `@scope/name` → `scope-name`: the fixture's file name. */
export const slugOf = (name) => name.replace(/^@/, '').replace(/[^A-Za-z0-9._-]+/g, '-');

const fill = (text, scratch) => text.replaceAll('{scratch}', scratch);

function install(pkg, dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, name: 'corpus-scratch' })}\n`);
  const run = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact', `${pkg.name}@${pkg.version}`], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (run.status !== 0) throw new Error(`npm install failed: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return JSON.parse(readFileSync(join(dir, 'node_modules', pkg.name, 'package.json'), 'utf8'));
}

function binOf(pkg, manifest) {
  const { bin } = manifest;
  if (typeof bin === 'string') return bin;
  const names = Object.keys(bin ?? {});
  const name = pkg.bin ?? names[0];
  if (!name || !bin[name]) throw new Error(`no bin ${pkg.bin ?? ''} in ${pkg.name}`);
  return bin[name];
}

/** The licence file's text, or undefined. */
function readLicenceFile(pkgDir, pattern) {
  const file = readdirSync(pkgDir).find((f) => pattern.test(f));
  return file === undefined ? undefined : readFileSync(join(pkgDir, file), 'utf8');
}

/** The SPDX id from package.json, or read off the LICENSE text when package.json points to it or says nothing. */
function licenceOf(manifest, text) {
  const declared = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
  if (declared && !/^SEE LICENSE/i.test(declared)) return { spdx: declared, source: 'package.json' };
  if (text === undefined) return { spdx: declared ?? 'UNKNOWN', source: 'none' };
  const head = text.slice(0, 400);
  if (/MIT License|Permission is hereby granted, free of charge/i.test(text) && !/Apache License/i.test(head)) {
    return { spdx: 'MIT', source: 'LICENSE' };
  }
  if (/Apache License\s+Version 2\.0/i.test(head)) return { spdx: 'Apache-2.0', source: 'LICENSE' };
  if (/ISC License/i.test(head)) return { spdx: 'ISC', source: 'LICENSE' };
  return { spdx: declared ?? 'UNKNOWN', source: 'LICENSE (unrecognised)' };
}

/** Sends initialize, initialized and every page of tools/list over the raw transport; returns the results as sent. */
async function listTools(command, args, env, cwd, timeoutMs) {
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const pending = new Map();
  let nextId = 1;
  let closed;
  const closedPromise = new Promise((_, reject) => {
    closed = reject;
  });
  transport.onmessage = (message) => {
    const waiter = pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`JSON-RPC error ${message.error.code}: ${message.error.message}`));
    else waiter.resolve(message.result);
  };
  transport.onclose = () => closed(new Error('server exited'));
  transport.onerror = () => {};
  closedPromise.catch(() => {});
  const request = (method, params) => {
    const id = nextId++;
    const answer = new Promise((res, rej) => pending.set(id, { resolve: res, reject: rej }));
    transport.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return Promise.race([answer, closedPromise]);
  };
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const work = (async () => {
      await transport.start();
      const init = await request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'schemaval-gather-corpus', version: '1' },
      });
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const pages = [];
      let cursor;
      do {
        const page = await request('tools/list', cursor === undefined ? {} : { cursor });
        pages.push(page);
        cursor = page?.nextCursor;
      } while (cursor !== undefined && pages.length < 100);
      return { init, pages };
    })();
    return await Promise.race([work, deadline]);
  } catch (error) {
    const last = stderr.trim().split('\n').filter(Boolean).slice(-2).join(' | ');
    throw new Error(`${error.message}${last ? `; stderr: ${last}` : ''}`);
  } finally {
    clearTimeout(timer);
    await transport.close().catch(() => {});
  }
}

/** The copyright lines of a licence text. */
const copyrightLines = (text) =>
  (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(
      (l) => /^(copyright\b|©|\(c\) *\d)/i.test(l) && !/^copyright (notice|license|owner|statement)/i.test(l) && !/\[yyyy\]/i.test(l),
    );

/** The standard MIT permission notice, for a package that declares MIT but ships no licence file. */
const MIT_TEXT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit
persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the
Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

const authorOf = (manifest) => (typeof manifest.author === 'string' ? manifest.author : (manifest.author?.name ?? undefined));

function licencesMarkdown(entries) {
  const lines = [
    '# Licences of the real-world corpus',
    '',
    'Each fixture here is the `tools/list` result of an npm package, redistributed under the licence below.',
    'The notice the licence requires is copied from the package as installed (regenerated by `scripts/gather-corpus.mjs`).',
    '',
  ];
  for (const e of entries) {
    lines.push(`## ${e.package} ${e.version}`, '', `- Licence: ${e.license} (from ${e.licenseSource})`);
    const noLine = e.licenseText ? '(no copyright line in the licence file)' : '(the package ships no licence file)';
    lines.push(`- Copyright: ${e.copyright.length > 0 ? e.copyright.join('; ') : noLine}`);
    if (e.author) lines.push(`- Author (package.json): ${e.author}`);
    lines.push('');
    if (e.license === 'Apache-2.0') {
      lines.push(
        e.notice
          ? `NOTICE:\n\n\`\`\`text\n${e.notice.trim()}\n\`\`\``
          : 'Licensed under the Apache License, Version 2.0 (https://www.apache.org/licenses/LICENSE-2.0); the package has no NOTICE file.',
        '',
      );
    } else if (e.licenseText) {
      lines.push('```text', e.licenseText.trim(), '```', '');
    } else if (e.license === 'MIT') {
      const holder = e.author ? `Copyright (c) ${e.author.replace(/\s*[(<].*$/, '')}` : 'Copyright (c) the authors';
      lines.push(
        `The package ships no licence file; its package.json declares MIT. The standard MIT notice, with the author its package.json names:`,
        '',
        '```text',
        `MIT License\n\n${holder}\n\n${MIT_TEXT}`,
        '```',
        '',
      );
    } else {
      lines.push(`The package ships no licence file; its package.json declares ${e.license}.`, '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

async function main() {
  const { values } = scriptArgs({
    command: 'node scripts/gather-corpus.mjs',
    usage: help,
    options: {
      only: { type: 'string', multiple: true },
      scratch: { type: 'string', default: '/tmp/corpus' },
      date: { type: 'string', default: new Date().toISOString().slice(0, 10) },
      timeout: { type: 'string', default: '20000' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const scratch = resolve(values.scratch);
  const timeoutMs = Number(values.timeout);
  const chosen = values.only ? PACKAGES.filter((p) => values.only.includes(p.name)) : PACKAGES;
  if (values.only && chosen.length !== values.only.length) throw new Error(`unknown package in --only: ${values.only.join(', ')}`);
  mkdirSync(join(scratch, 'home', 'allowed'), { recursive: true });
  const gathered = [];
  const skipped = [];
  for (const pkg of chosen) {
    const dir = join(scratch, slugOf(pkg.name));
    try {
      process.stderr.write(`${pkg.name}@${pkg.version}: installing\n`);
      const manifest = install(pkg, dir);
      if (manifest.version !== pkg.version) throw new Error(`installed ${manifest.version}, pinned ${pkg.version}`);
      const pkgDir = join(dir, 'node_modules', pkg.name);
      const licenseText = readLicenceFile(pkgDir, /^(licen[cs]e|copying)(\.md|\.txt)?$/i);
      const { spdx, source } = licenceOf(manifest, licenseText);
      if (!REDISTRIBUTABLE.has(spdx)) {
        skipped.push({ package: pkg.name, version: pkg.version, reason: `licence ${spdx} (${source}) is not in the redistributable set` });
        continue;
      }
      const bin = binOf(pkg, manifest);
      const args = (pkg.args ?? []).map((a) => fill(a, scratch));
      const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: join(scratch, 'home'),
        NODE_ENV: 'production',
        PUPPETEER_SKIP_DOWNLOAD: '1',
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        ...Object.fromEntries(Object.entries(pkg.env ?? {}).map(([k, v]) => [k, fill(v, scratch)])),
      };
      process.stderr.write(`${pkg.name}@${pkg.version}: listing tools\n`);
      const { init, pages } = await listTools(process.execPath, [join(pkgDir, bin), ...args], env, scratch, timeoutMs);
      const tools = pages.flatMap((p) => (Array.isArray(p?.tools) ? p.tools : []));
      if (tools.length === 0) {
        skipped.push({ package: pkg.name, version: pkg.version, reason: 'tools/list answered with no tools' });
        continue;
      }
      const envNote = Object.keys(pkg.env ?? {});
      const fixture = {
        package: pkg.name,
        version: manifest.version,
        license: spdx,
        gatheredAt: values.date,
        command: `node node_modules/${pkg.name}/${bin.replace(/^\.\//, '')}${args.length ? ` ${args.map((a) => a.replace(scratch, '$SCRATCH')).join(' ')}` : ''}${envNote.length ? ` (env: ${envNote.map((k) => `${k}=${env[k].replace(scratch, '$SCRATCH')}`).join(' ')})` : ''}`,
        serverInfo: init?.serverInfo ?? null,
        protocolVersion: init?.protocolVersion ?? null,
        // One tools/list result: the tools of every page, in order, as sent (pages > 1 are noted).
        pages: pages.length,
        result: pages.length === 1 ? pages[0] : { tools },
      };
      const noticeText = readLicenceFile(pkgDir, /^notice(\.md|\.txt)?$/i);
      gathered.push({
        fixture,
        licence: {
          package: pkg.name,
          version: manifest.version,
          license: spdx,
          licenseSource: source,
          licenseText,
          notice: noticeText,
          copyright: copyrightLines(licenseText),
          author: authorOf(manifest),
        },
      });
      process.stderr.write(`${pkg.name}@${pkg.version}: ${tools.length} tools\n`);
    } catch (error) {
      skipped.push({ package: pkg.name, version: pkg.version, reason: error instanceof Error ? error.message : String(error) });
      process.stderr.write(`${pkg.name}@${pkg.version}: skipped: ${skipped.at(-1).reason}\n`);
    }
  }
  let bytes = 0;
  if (!values['dry-run']) {
    mkdirSync(outDir, { recursive: true });
    for (const { fixture } of gathered) {
      const text = `${JSON.stringify(fixture, null, 2)}\n`;
      bytes += Buffer.byteLength(text);
      writeFileSync(join(outDir, `${slugOf(fixture.package)}.json`), text);
    }
    // LICENSES.md covers every fixture in the directory: those just gathered, and kept ones (with --only) from their
    // scratch install.
    const entries = new Map(gathered.map((g) => [g.licence.package, g.licence]));
    for (const file of readdirSync(outDir).filter((f) => f.endsWith('.json'))) {
      const kept = JSON.parse(readFileSync(join(outDir, file), 'utf8'));
      if (entries.has(kept.package)) continue;
      const pkgDir = join(scratch, slugOf(kept.package), 'node_modules', kept.package);
      if (!existsSync(pkgDir)) throw new Error(`${kept.package}: no scratch install for its LICENSES.md entry; gather it again`);
      const licenseText = readLicenceFile(pkgDir, /^(licen[cs]e|copying)(\.md|\.txt)?$/i);
      const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      if (manifest.version !== kept.version) throw new Error(`${kept.package}: scratch has ${manifest.version}, fixture ${kept.version}`);
      entries.set(kept.package, {
        package: kept.package,
        version: kept.version,
        license: kept.license,
        licenseSource: licenceOf(manifest, licenseText).source,
        author: authorOf(manifest),
        licenseText,
        notice: readLicenceFile(pkgDir, /^notice(\.md|\.txt)?$/i),
        copyright: copyrightLines(licenseText),
      });
    }
    const sorted = [...entries.values()].sort((a, b) => a.package.localeCompare(b.package));
    writeFileSync(join(outDir, 'LICENSES.md'), licencesMarkdown(sorted));
  }
  const toolCount = gathered.reduce((n, g) => n + g.fixture.result.tools.length, 0);
  process.stdout.write(`gathered ${gathered.length} servers, ${toolCount} tools${values['dry-run'] ? '' : `, ${bytes} bytes`}\n`);
  for (const { fixture } of gathered) {
    process.stdout.write(`  ${fixture.package}@${fixture.version} ${fixture.license} ${fixture.result.tools.length} tools\n`);
  }
  if (skipped.length > 0) process.stdout.write(`skipped ${skipped.length}:\n`);
  for (const s of skipped) process.stdout.write(`  ${s.package}@${s.version}: ${s.reason}\n`);
  return 0;
}

process.exitCode = await main();
