import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SchemaValidationWarning } from '../host/browser.ts';
import type { Issue } from '../protocol/issue.ts';
import { h } from './dom.ts';

/** A tool result: its content (text as text, other kinds summarised), `structuredContent` as JSON, and warnings. */
export function renderResult(result: CallToolResult, warnings: readonly SchemaValidationWarning[]): Node[] {
  const nodes: Node[] = [];
  if (result.isError) nodes.push(h('p', { class: 'error' }, 'The tool reported an error.'));
  for (const item of result.content ?? []) {
    nodes.push(
      item.type === 'text'
        ? h('p', { class: 'content-text', 'data-testid': 'content-text' }, item.text)
        : h('p', { class: 'muted' }, `[${item.type} content]`),
    );
  }
  if (result.structuredContent !== undefined) {
    nodes.push(
      h(
        'details',
        { open: true },
        h('summary', {}, 'structuredContent'),
        h('pre', { 'data-testid': 'structured-content' }, JSON.stringify(result.structuredContent, null, 2)),
      ),
    );
  }
  if (warnings.length > 0) nodes.push(renderWarnings(warnings, 'output-warnings'));
  return nodes;
}

/** A failed call: the JSON-RPC error and, for a -32602 from the validator, each path-qualified issue. */
export function renderCallError(error: unknown): Node[] {
  const message = error instanceof Error ? error.message : String(error);
  const data = (error as { data?: { code?: unknown; issues?: readonly Issue[] } }).data;
  const nodes: Node[] = [h('p', { class: 'error' }, message)];
  if (Array.isArray(data?.issues) && data.issues.length > 0) {
    nodes.push(h('ul', { class: 'issues' }, ...data.issues.map((issue) => h('li', {}, `${issue.path}: ${issue.message}`))));
  }
  return nodes;
}

/** Warnings as `code: message` lines. */
export function renderWarnings(warnings: readonly { readonly code: string; readonly message: string }[], testId: string): HTMLElement {
  return h(
    'ul',
    { class: 'warnings', 'data-testid': testId },
    ...warnings.map((w) => h('li', {}, h('code', {}, w.code), `: ${w.message}`)),
  );
}
