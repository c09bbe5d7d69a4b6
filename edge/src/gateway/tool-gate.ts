import type { Engine } from '../../../src/engine/core/index.ts';
import { formatIssues } from '../../../src/engine/issues/index.ts';
import { exactJsonText, parseJson } from '../../../src/engine/json/index.ts';
import { toolRefusal } from '../../../src/engine/tools/index.ts';
import { judgeToolList, refusedToolMessage } from '../../../src/mcp/index.ts';
import type { Issue } from '../../../src/protocol/issue.ts';
import type { ValidationOutcome } from '../../../src/protocol/outcome.ts';
import type { ToolVerdict } from '../../../src/protocol/tool.ts';
import type { ListPage, SessionStore, StoredTool } from '../state/session-store.ts';

/** Generous: the engine applies the policy's own bounds to each schema and instance. */
const definitionLimits = { maxBytes: 16 * 1024 * 1024, maxDepth: 1000 };

/** `{ name, inputSchema, outputSchema }` as JSON text that keeps every number exact (`exactJsonText`). */
export function definitionText(tool: { name?: unknown; inputSchema?: unknown; outputSchema?: unknown }): string {
  return exactJsonText({ name: tool.name, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }) ?? '{}';
}

/** Tools compiled between two turns of the event loop, at most (see `compileInSlices`). */
const sliceTools = 256;
/** JSON bytes of definitions compiled between two turns, at most; a larger tool is a slice of its own. */
export const sliceBytes = 256 * 1024;

/**
 * `engine.compileTools` a slice at a time, yielding to the event loop between slices: the engine is synchronous, and
 * a list of 10,000 tools compiled in one go held the isolate for ~0.7 s, during which it answered nothing else (not
 * even /healthz). A slice is bounded in tools and in bytes: 16 tools of 233 KB each (3.7 MB) made one slice by count
 * alone, 117-156 ms of compiling in one turn in Node, where a tool alone takes 11-33 ms. `sizeOf` measures a tool
 * (its `definitionText` length; the gate passes the texts it keeps, so each is written once). The list's own
 * refusals (duplicates across slices) are judged on the whole list before this.
 */
export async function compileInSlices(
  engine: Engine,
  tools: readonly unknown[],
  sizeOf: (tool: unknown) => number = definitionLength,
): Promise<ToolVerdict[]> {
  const verdicts: ToolVerdict[] = [];
  let start = 0;
  let bytes = 0;
  const compileUpTo = async (end: number): Promise<void> => {
    if (start > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    verdicts.push(...engine.compileTools(tools.slice(start, end)));
    start = end;
    bytes = 0;
  };
  for (let i = 0; i < tools.length; i++) {
    let size: number;
    try {
      size = sizeOf(tools[i]);
    } catch {
      size = sliceBytes; // a tool that cannot be written is a slice of its own
    }
    if (i > start && (i - start >= sliceTools || bytes + size > sliceBytes)) await compileUpTo(i);
    bytes += size;
  }
  if (start < tools.length) await compileUpTo(tools.length);
  return verdicts;
}

const definitionLength = (tool: unknown): number => definitionText(tool as Parameters<typeof definitionText>[0]).length;

export type GateOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly issues?: readonly Issue[] };

/**
 * The gateway's tool checks against the isolate's engine (compiled validators cached per isolate), with each
 * session's tool list kept in its store so any isolate can check a call.
 */
export function createToolGate(engine: Engine) {
  /** Runs a check by fingerprint, compiling the stored definition first when this isolate has not seen it. */
  const withTool = async (tool: StoredTool, check: (fingerprint: string) => ValidationOutcome): Promise<ValidationOutcome> => {
    try {
      return check(tool.verdict.fingerprint);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'UNKNOWN_FINGERPRINT') throw error;
      const parsed = parseJson(tool.definition, definitionLimits);
      if (!parsed.ok) throw new Error(`stored tool ${tool.name} is unreadable`);
      await engine.compileTools([parsed.value]);
      return check(tool.verdict.fingerprint);
    }
  };

  return {
    /**
     * Compiles a page of `tools/list`, remembers every verdict (a first page replacing what the store held), and
     * returns the page without refused tools. `revision` is the request's MCP revision, where known: before
     * 2026-07-28 an `outputSchema` whose root is not `"type": "object"` is malformed (`toolListRefusals`).
     */
    async admit(
      tools: readonly unknown[],
      store: SessionStore,
      page: ListPage,
      revision?: string,
    ): Promise<{ accepted: unknown[]; refused: StoredTool[] }> {
      // Each definition is written once: its length sizes the compile slices, its text is what the store keeps.
      const texts = new Map<unknown, string>();
      const textOf = (tool: unknown): string => {
        let text = texts.get(tool);
        if (text === undefined) {
          text = definitionText(tool as Parameters<typeof definitionText>[0]);
          texts.set(tool, text);
        }
        return text;
      };
      const verdicts = await judgeToolList(tools, revision, (judged) => compileInSlices(engine, judged, (tool) => textOf(tool).length));
      const stored: StoredTool[] = verdicts.map((verdict, i) => {
        const tool = (tools[i] ?? {}) as { outputSchema?: unknown };
        return {
          name: verdict.name,
          verdict,
          definition: verdict.status === 'accepted' ? textOf(tool) : '{}',
          hasOutputSchema: tool.outputSchema !== undefined,
        };
      });
      await store.putTools(stored, page);
      return {
        accepted: tools.filter((_, i) => verdicts[i]?.status === 'accepted'),
        refused: stored.filter((tool) => tool.verdict.status === 'refused'),
      };
    },

    /** Whether a `tools/call` may be forwarded. */
    async checkCall(tool: StoredTool, args: unknown): Promise<GateOutcome> {
      const refusal = toolRefusal(tool.verdict);
      if (refusal !== undefined) {
        return {
          ok: false,
          code: refusal.code,
          message: refusedToolMessage(tool.name, refusal),
        };
      }
      const outcome = await withTool(tool, (fingerprint) => engine.validateArguments(fingerprint, args ?? {}));
      if (outcome.status === 'refused')
        return { ok: false, code: outcome.refusal.code, message: `Tool "${tool.name}": ${outcome.refusal.message}` };
      if (outcome.status === 'valid') return { ok: true };
      return {
        ok: false,
        code: 'invalid_arguments',
        message: `Invalid arguments for tool "${tool.name}": ${formatIssues(outcome.issues)}`,
        issues: outcome.issues,
      };
    },

    /** Whether a tool result's `structuredContent` matches the tool's `outputSchema` (isError results pass). */
    async checkOutput(tool: StoredTool, result: Record<string, unknown>): Promise<GateOutcome> {
      if (!tool.hasOutputSchema || result.isError === true) return { ok: true };
      if (result.structuredContent === undefined) {
        return {
          ok: false,
          code: 'structured_content_missing',
          message: `Tool "${tool.name}" declares an outputSchema but returned no structuredContent`,
        };
      }
      const outcome = await withTool(tool, (fingerprint) => engine.validateStructured(fingerprint, result.structuredContent));
      if (outcome.status === 'refused') return { ok: false, code: outcome.refusal.code, message: outcome.refusal.message };
      if (outcome.status === 'valid') return { ok: true };
      return {
        ok: false,
        code: 'structured_content_invalid',
        message: `Tool "${tool.name}" returned structuredContent that does not match its outputSchema: ${formatIssues(outcome.issues)}`,
        issues: outcome.issues,
      };
    },
  };
}

export type ToolGate = ReturnType<typeof createToolGate>;
