import { h } from './dom.ts';
import type { ToolCounts } from './tools-panel.ts';

/** Tool verdicts of one `tools/list` (all pages): how many were compiled now and how many came from IndexedDB. */
export interface VerdictCounts {
  readonly tools: number;
  readonly compiled: number;
  readonly fromCache: number;
}

export type ConnectionState = 'connecting' | 'connected' | 'failed';

export interface StatusBar {
  readonly element: HTMLElement;
  setConnection(state: ConnectionState, detail?: string): void;
  /** Where this page's verdicts came from (the adapter's `onVerdicts`). */
  setVerdicts(counts: VerdictCounts): void;
  /** What the tools panel lists; the line's tool counts always match it. */
  setTools(counts: ToolCounts): void;
}

const plural = (n: number, word: string): string => `${n} ${n === 1 ? word : `${word}s`}`;

/**
 * The connection state and one line about the tools: "6 tools: 4 callable, 2 refused · verdicts: 4 compiled here,
 * 0 from cache, 2 from the gateway". Tools the gateway filtered out have no verdict on this page: they are the
 * listed tools the adapter never saw.
 */
export function createStatusBar(): StatusBar {
  const connection = h('span', { class: 'connection', 'data-testid': 'connection', 'data-state': 'connecting' }, 'Connecting to /mcp…');
  const verdicts = h('span', { class: 'verdicts', 'data-testid': 'verdict-summary' });
  const element = h('p', { class: 'status-bar', role: 'status' }, connection, verdicts);
  let local: VerdictCounts = { tools: 0, compiled: 0, fromCache: 0 };
  let listed: ToolCounts | undefined;

  const render = (): void => {
    const gateway = listed === undefined ? 0 : Math.max(0, listed.listed - local.tools);
    const sources = `${local.compiled} compiled here, ${local.fromCache} from cache${gateway > 0 ? `, ${gateway} from the gateway` : ''}`;
    Object.assign(verdicts.dataset, {
      tools: String(listed?.listed ?? local.tools),
      callable: String(listed?.callable ?? ''),
      refused: String(listed?.refused ?? ''),
      compiled: String(local.compiled),
      fromCache: String(local.fromCache),
      gateway: String(gateway),
    });
    verdicts.textContent =
      listed === undefined
        ? `${plural(local.tools, 'verdict')}: ${sources}`
        : `${plural(listed.listed, 'tool')}: ${listed.callable} callable, ${listed.refused} refused · verdicts: ${sources}`;
  };

  return {
    element,
    setConnection(state, detail) {
      connection.dataset.state = state;
      const text = { connecting: 'Connecting to /mcp…', connected: 'Connected to /mcp', failed: 'Connection failed' }[state];
      // One line, whatever the detail holds (an error's message may span lines or carry a dump).
      const line = detail?.replace(/\s+/g, ' ').trim();
      connection.textContent = line === undefined || line === '' ? text : `${text}: ${line.length > 300 ? `${line.slice(0, 299)}…` : line}`;
    },
    setVerdicts(counts) {
      local = counts;
      render();
    },
    setTools(counts) {
      listed = counts;
      render();
    },
  };
}
