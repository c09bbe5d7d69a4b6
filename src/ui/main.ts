// The demo chat page (docs/architecture.md#demo-page): connects through this origin's /mcp gateway to the demo server or any
// allow-listed MCP server the person names, with the schemaval host adapter, whose validation runs in a module Web Worker,
// and lets a person list, fill in and call tools and answer elicitations.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isPositiveInteger } from '../engine/numbers/index.ts';
import { createIdbVerdictCache, createValidator, type SchemaValidationWarning, spawnBrowserWorker, toolRefusal } from '../host/browser.ts';
import type { RefusalCode } from '../protocol/refusal.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import { connect, describeConnectError } from './connect.ts';
import { createCounterButton } from './counter-button.ts';
import { h } from './dom.ts';
import { askElicitation } from './elicitation-dialog.ts';
import { listAllTools } from './list-tools.ts';
import type { PageClient } from './modern-client.ts';
import { renderCallError, renderResult } from './result-view.ts';
import { createServerForm } from './server-form.ts';
import { createStatusBar, type VerdictCounts } from './status-bar.ts';
import { createToolView, type ToolView } from './tool-view.ts';
import { createToolsPanel, type ToolEntry } from './tools-panel.ts';
import { type Conversation, createTranscript } from './transcript.ts';

const mount = (id: string): HTMLElement => document.getElementById(id) ?? document.body;
/** What the conversation label says for the gateway's own upstream, whose URL the page is not told. */
const demoLabel = 'the demo server (the gateway’s default upstream)';

const status = createStatusBar();
const transcript = createTranscript();
const workspace = mount('workspace');
// `?budget=N`: this page's validation time budget in ms (default 250); `?maxWork=N`: its work bound per instance
// (default 50,000 steps). The e2e tests pass a tiny budget and a raised bound, so that an admitted value takes tens of
// milliseconds and makes a tool too_slow on purpose (docs/ui.md); nothing else reads them. Anything but a positive
// whole number leaves the default: the engine's one check of a bound (`isPositiveInteger`, which resolvePolicy and
// the CLI apply too), where a bad value keeps the default rather than throwing.
const query = new URLSearchParams(location.search);
const positive = (name: string): number | undefined => {
  const value = Number(query.get(name));
  return isPositiveInteger(value) ? value : undefined;
};
const budget = positive('budget');
const maxWork = positive('maxWork');
const validator = createValidator({
  spawn: spawnBrowserWorker(new URL('./worker.js', import.meta.url)),
  ...(budget !== undefined ? { timeBudgetMs: budget } : {}),
  ...(maxWork !== undefined ? { policy: { maxWork } } : {}),
});
/** The adapter's verdict store (same IndexedDB store), to remember a tool found too slow after it was listed. */
const verdictStore = createIdbVerdictCache();
const tools = new Map<string, Tool>();
const verdicts = new Map<string, ToolVerdict>();
const watchers = new Set<(warning: SchemaValidationWarning) => void>();
let counts: VerdictCounts = { tools: 0, compiled: 0, fromCache: 0 };
let view: ToolView | undefined;

const panel = createToolsPanel((name) => {
  const tool = tools.get(name);
  if (tool === undefined) return;
  view?.dispose();
  // Compiled once per view, then validated by fingerprint: each check gets the validation budget, not a compile's.
  let compiled: Promise<string> | undefined;
  const fingerprintOf = (): Promise<string> => {
    compiled ??= validator.compile(tool.inputSchema).then(
      (info) => info.fingerprint,
      () => '',
    );
    return compiled;
  };
  view = createToolView({
    tool,
    validate: async (args) => {
      const fingerprint = await fingerprintOf();
      return validator.validate(fingerprint === '' ? tool.inputSchema : fingerprint, args);
    },
    call: (args) => callTool(tool, args),
    onRefused: (code, message) => {
      if (panel.refuse(tool.name, code, message)) void rememberRefusal(tool.name, code as RefusalCode, message);
    },
  });
  workspace.replaceChildren(view.element);
  // On a phone the form is far below the tool that was tapped: bring it into sight and move focus there.
  view.focus();
}, status.setTools);

/** A tool refused after it was listed (its validations kept overrunning the budget) stays refused after a reload. */
async function rememberRefusal(name: string, code: RefusalCode, message: string): Promise<void> {
  const verdict = verdicts.get(name);
  if (verdict === undefined) return;
  verdicts.set(name, { ...verdict, status: 'refused', input: { status: 'refused', refusal: { code, message } } });
  const saved = await verdictStore.refuse(verdict.fingerprint, 'input', { code, message });
  document.body.dataset.refusalsSaved = String(Number(document.body.dataset.refusalsSaved ?? 0) + saved);
}

mount('status').append(status.element);
mount('probe').append(createCounterButton());
// The server to connect to: `?server=URL` (kept in the address bar, so a reload reconnects), else the demo server.
const serverForm = createServerForm(
  new URLSearchParams(location.search).get('server') ?? '',
  (server, headers) => void start(server, headers),
);
mount('tools').append(serverForm.element, panel.element);
mount('conversation').append(transcript.element);

/** Connections are numbered: callbacks of a client the person has since replaced are ignored. */
let generation = 0;
let client: Promise<PageClient> | undefined;
/** The conversation with the server connected to: each server has its own, so no answer shows under another's. */
let conversation: Conversation = transcript.open('', demoLabel);

function connectTo(server: string, headers: Readonly<Record<string, string>>, own: number, talk: Conversation): Promise<PageClient> {
  return connect({
    url: new URL('/mcp', location.href),
    server,
    headers,
    validator,
    onWarning: (warning) => {
      if (own !== generation) return;
      for (const watch of watchers) watch(warning);
    },
    onVerdicts: (summary) => {
      if (own !== generation) return;
      for (const verdict of summary.verdicts) verdicts.set(verdict.name, verdict);
      counts = {
        tools: counts.tools + summary.verdicts.length,
        compiled: counts.compiled + summary.compiled,
        fromCache: counts.fromCache + summary.fromCache,
      };
      status.setVerdicts(counts);
    },
    elicit: async (request, signal) => {
      talk.add('server', 'elicitation-request', `asks: ${request.message}`);
      const answer = await askElicitation(
        request,
        { validate: (schema, content) => validator.validateElicitation(schema, content) },
        signal,
      );
      talk.add(
        'you',
        'elicitation-answer',
        `${answer.action}`,
        ...(answer.content ? [' ', h('code', {}, JSON.stringify(answer.content))] : []),
      );
      return answer;
    },
  });
}

async function callTool(tool: Tool, args: unknown): Promise<void> {
  // The answer goes to the conversation the call was made in, even if the person has switched servers since.
  const talk = conversation;
  talk.add('you', 'call', 'call ', h('code', {}, tool.name), ' ', h('code', {}, JSON.stringify(args)));
  const warnings: SchemaValidationWarning[] = [];
  const watch = (warning: SchemaValidationWarning): void => {
    if (warning.tool === tool.name) warnings.push(warning);
  };
  watchers.add(watch);
  try {
    if (client === undefined) throw new Error('not connected');
    const result = (await (await client).callTool({ name: tool.name, arguments: args as Record<string, unknown> })) as CallToolResult;
    talk.add('server', 'result', ...renderResult(result, warnings)).dataset.tool = tool.name;
  } catch (error) {
    talk.add('page', 'call-error', ...renderCallError(error)).dataset.tool = tool.name;
  } finally {
    watchers.delete(watch);
  }
}

/** Accepted tools (with their warnings), then tools the adapter refused, then those the gateway refused. */
function entries(listed: readonly Tool[], gatewayRefused: readonly { name: string; code: string; message: string }[]): ToolEntry[] {
  const accepted: ToolEntry[] = listed.map((tool) => ({
    status: 'accepted',
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    warnings: verdicts.get(tool.name)?.warnings ?? [],
  }));
  const refusedHere: ToolEntry[] = [...verdicts.values()].flatMap((verdict) => {
    const refusal = toolRefusal(verdict);
    return refusal === undefined ? [] : [{ status: 'refused', name: verdict.name, code: refusal.code, message: refusal.message }];
  });
  return [...accepted, ...refusedHere, ...gatewayRefused.map((r): ToolEntry => ({ status: 'refused', ...r }))];
}

/** Connects to `server` (empty: the demo server) through the gateway, replacing any earlier connection, and lists its tools. */
async function start(server: string, headers: Readonly<Record<string, string>> = {}): Promise<void> {
  const own = ++generation;
  conversation = transcript.open(server, server === '' ? demoLabel : server);
  const previous = client;
  view?.dispose();
  view = undefined;
  tools.clear();
  verdicts.clear();
  counts = { tools: 0, compiled: 0, fromCache: 0 };
  panel.show([]);
  workspace.replaceChildren(h('p', { class: 'muted' }, 'Select a tool to get a form generated from its input schema.'));
  serverForm.setError(undefined);
  serverForm.setBusy(true);
  status.setConnection('connecting');
  document.body.dataset.ready = 'false';
  document.body.dataset.server = server;
  document.body.dataset.revision = '';
  const address = new URL(location.href);
  if (server === '') address.searchParams.delete('server');
  else address.searchParams.set('server', server);
  history.replaceState(null, '', address);
  void previous?.then((old) => old.close()).catch(() => undefined);
  try {
    client = connectTo(server, headers, own, conversation);
    const connected = await client;
    if (own !== generation) return;
    status.setConnection('connected', server === '' ? undefined : server);
    document.body.dataset.revision = connected.revision;
    const listing = await listAllTools(connected);
    if (own !== generation) return;
    for (const tool of listing.tools) tools.set(tool.name, tool);
    panel.show(entries(listing.tools, listing.refused));
    document.body.dataset.ready = 'true';
  } catch (error) {
    if (own !== generation) return;
    const reason = describeConnectError(error, server);
    status.setConnection('failed', reason);
    serverForm.setError(reason);
    document.body.dataset.ready = 'error';
  } finally {
    if (own === generation) serverForm.setBusy(false);
  }
}

void start(new URLSearchParams(location.search).get('server') ?? '');
