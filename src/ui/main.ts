// The demo chat page (docs/architecture.md#demo-page): connects to this origin's /mcp through the schemaval host adapter, whose
// validation runs in a module Web Worker, and lets a person list, fill in and call tools and answer elicitations.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createValidator, type SchemaValidationWarning, spawnBrowserWorker, toolRefusal } from '../host/browser.ts';
import type { ToolVerdict } from '../protocol/tool.ts';
import { connect } from './connect.ts';
import { createCounterButton } from './counter-button.ts';
import { h } from './dom.ts';
import { askElicitation } from './elicitation-dialog.ts';
import { listAllTools } from './list-tools.ts';
import { renderCallError, renderResult } from './result-view.ts';
import { createStatusBar, type VerdictCounts } from './status-bar.ts';
import { createToolView, type ToolView } from './tool-view.ts';
import { createToolsPanel, type ToolEntry } from './tools-panel.ts';
import { createTranscript } from './transcript.ts';

const mount = (id: string): HTMLElement => document.getElementById(id) ?? document.body;

const status = createStatusBar();
const transcript = createTranscript();
const workspace = mount('workspace');
const validator = createValidator({ spawn: spawnBrowserWorker(new URL('./worker.js', import.meta.url)) });
const tools = new Map<string, Tool>();
const verdicts = new Map<string, ToolVerdict>();
const watchers = new Set<(warning: SchemaValidationWarning) => void>();
let counts: VerdictCounts = { tools: 0, compiled: 0, fromCache: 0 };
let view: ToolView | undefined;

const panel = createToolsPanel((name) => {
  const tool = tools.get(name);
  if (tool === undefined) return;
  view?.dispose();
  view = createToolView({
    tool,
    validate: (args) => validator.validate(tool.inputSchema, args),
    call: (args) => callTool(tool, args),
    onRefused: (code, message) => panel.refuse(tool.name, code, message),
  });
  workspace.replaceChildren(view.element);
});

mount('status').append(status.element);
mount('probe').append(createCounterButton());
mount('tools').append(panel.element);
mount('conversation').append(transcript.element);

const client = connect({
  url: new URL('/mcp', location.href),
  validator,
  onWarning: (warning) => {
    for (const watch of watchers) watch(warning);
  },
  onVerdicts: (summary) => {
    for (const verdict of summary.verdicts) verdicts.set(verdict.name, verdict);
    counts = {
      tools: counts.tools + summary.verdicts.length,
      compiled: counts.compiled + summary.compiled,
      fromCache: counts.fromCache + summary.fromCache,
    };
    status.setVerdicts(counts);
  },
  elicit: async (request, signal) => {
    transcript.add('server', 'elicitation-request', `asks: ${request.message}`);
    const answer = await askElicitation(request, { validate: (schema, content) => validator.validateElicitation(schema, content) }, signal);
    transcript.add(
      'you',
      'elicitation-answer',
      `${answer.action}`,
      ...(answer.content ? [' ', h('code', {}, JSON.stringify(answer.content))] : []),
    );
    return answer;
  },
});

async function callTool(tool: Tool, args: unknown): Promise<void> {
  transcript.add('you', 'call', 'call ', h('code', {}, tool.name), ' ', h('code', {}, JSON.stringify(args)));
  const warnings: SchemaValidationWarning[] = [];
  const watch = (warning: SchemaValidationWarning): void => {
    if (warning.tool === tool.name) warnings.push(warning);
  };
  watchers.add(watch);
  try {
    const result = (await (await client).callTool({ name: tool.name, arguments: args as Record<string, unknown> })) as CallToolResult;
    transcript.add('server', 'result', ...renderResult(result, warnings)).dataset.tool = tool.name;
  } catch (error) {
    transcript.add('page', 'call-error', ...renderCallError(error)).dataset.tool = tool.name;
  } finally {
    watchers.delete(watch);
  }
}

/** Accepted tools (with their warnings), then tools the adapter refused, then those the gateway refused. */
function entries(listed: readonly Tool[], gatewayRefused: readonly { name: string; code: string; message: string }[]): ToolEntry[] {
  const accepted: ToolEntry[] = listed.map((tool) => ({
    verdict: 'accepted',
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    warnings: verdicts.get(tool.name)?.warnings ?? [],
  }));
  const refusedHere: ToolEntry[] = [...verdicts.values()].flatMap((verdict) => {
    const refusal = toolRefusal(verdict);
    return refusal === undefined ? [] : [{ verdict: 'refused', name: verdict.name, code: refusal.code, message: refusal.message }];
  });
  return [...accepted, ...refusedHere, ...gatewayRefused.map((r): ToolEntry => ({ verdict: 'refused', ...r }))];
}

async function start(): Promise<void> {
  try {
    const connected = await client;
    status.setConnection('connected');
    counts = { tools: 0, compiled: 0, fromCache: 0 };
    const listing = await listAllTools(connected);
    for (const tool of listing.tools) tools.set(tool.name, tool);
    panel.show(entries(listing.tools, listing.refused));
    document.body.dataset.ready = 'true';
  } catch (error) {
    status.setConnection('failed', error instanceof Error ? error.message : String(error));
    document.body.dataset.ready = 'error';
  }
}

void start();
