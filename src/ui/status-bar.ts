import { h } from './dom.ts';

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
  setVerdicts(counts: VerdictCounts): void;
}

/** The connection state and the verdict line ("4 tools: 0 schemas compiled, 4 from cache"). */
export function createStatusBar(): StatusBar {
  const connection = h('span', { class: 'connection', 'data-testid': 'connection', 'data-state': 'connecting' }, 'Connecting to /mcp…');
  const verdicts = h('span', { class: 'verdicts', 'data-testid': 'verdict-summary' });
  const element = h('p', { class: 'status-bar', role: 'status' }, connection, verdicts);
  return {
    element,
    setConnection(state, detail) {
      connection.dataset.state = state;
      const text = { connecting: 'Connecting to /mcp…', connected: 'Connected to /mcp', failed: 'Connection failed' }[state];
      connection.textContent = detail === undefined ? text : `${text}: ${detail}`;
    },
    setVerdicts({ tools, compiled, fromCache }) {
      verdicts.dataset.tools = String(tools);
      verdicts.dataset.compiled = String(compiled);
      verdicts.dataset.fromCache = String(fromCache);
      verdicts.textContent = `${tools} tools: ${compiled} ${compiled === 1 ? 'schema' : 'schemas'} compiled, ${fromCache} from cache`;
    },
  };
}
