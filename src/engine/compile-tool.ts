import type { SchemaVerdict, ToolVerdict } from '../protocol/tool.ts';
import type { SchemaWarning } from '../protocol/warning.ts';
import type { CompileResult } from './compile-schema.ts';
import { toolFingerprintIfAny } from './fingerprint.ts';
import { jsonKeyBytes } from './json-string-bytes.ts';
import { truncate } from './truncate.ts';

/** A tool's compiled schemas, kept by fingerprint for later argument and result checks. */
export interface CompiledTool {
  readonly name: string;
  readonly fingerprint: string;
  readonly input: CompileResult | null;
  readonly output: CompileResult | null;
  readonly verdict: ToolVerdict;
}

/**
 * The verdicts a `tools/list` result forces whatever the tools' schemas say (`invalid_tool`), by index; undefined
 * where the definition is judged by its schemas. Refused: an entry that is not an object with a string `name`; an
 * empty name; a name with a lone UTF-16 surrogate (no canonical form, so no fingerprint); and every definition of
 * a name the list holds more than once, since which one a call means cannot be known (never the last one,
 * silently). Such a verdict has the fingerprint `""` (an empty name's keeps the definition's): it judges the list,
 * not a definition, so nothing may cache it or look the tool up by it. Every surface applies this to the whole
 * list it was given, and caches none of these verdicts. A list read page by page is one list: `earlier` counts
 * the names on its pages before this one.
 */
export function toolListRefusals(tools: readonly unknown[], earlier: ReadonlyMap<string, number> = new Map()): (ToolVerdict | undefined)[] {
  const names: (string | undefined)[] = tools.map((entry) =>
    typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string'
      ? (entry as { name: string }).name
      : undefined,
  );
  const counts = new Map<string, number>(earlier);
  for (const name of names) if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
  return names.map((name, i) => {
    if (name === undefined) return refusedTool(`tools[${i}]`, `tools[${i}] is not a tool: want an object with a string "name"`);
    const quoted = JSON.stringify(truncate(name, 60));
    // An empty name is wrong whatever the list holds, so that verdict keeps the definition's fingerprint.
    if (name === '') return refusedTool(name, `tools[${i}] has an empty "name"`, toolFingerprintIfAny(tools[i] as { name: string }));
    if (jsonKeyBytes(name) < 0) return refusedTool(name, `tool name ${quoted} holds a lone UTF-16 surrogate: not well-formed Unicode`);
    const count = counts.get(name) ?? 1;
    if (count > 1) return refusedTool(name, `tool name ${quoted} appears ${count} times in this list: every definition of it is refused`);
    return undefined;
  });
}

/** A tool refused for its definition rather than its schemas: reported on `input`, like a refused input schema. */
function refusedTool(name: string, message: string, fingerprint = ''): ToolVerdict {
  return { name, fingerprint, verdict: 'refused', input: { ok: false, code: 'invalid_tool', message }, output: null, warnings: [] };
}

/** Builds a tool's verdict from its schemas' compile results (docs/architecture.md#cli: refused if either schema is). */
export function toolVerdict(
  name: string,
  fingerprint: string,
  inputSchema: unknown,
  input: CompileResult | null,
  output: CompileResult | null,
): ToolVerdict {
  const warnings: SchemaWarning[] = [];
  const collect = (label: string, result: CompileResult | null): SchemaVerdict | null => {
    if (result === null) return null;
    if (!result.ok) return { ok: false, code: result.refusal.code, message: `${label}: ${result.refusal.message}` };
    for (const warning of result.schema.warnings) warnings.push({ code: warning.code, message: `${label}: ${warning.message}` });
    return { ok: true };
  };
  const inputVerdict = collect('inputSchema', input);
  const outputVerdict = collect('outputSchema', output);
  if (input?.ok && !declaresObjectRoot(inputSchema)) {
    warnings.push({ code: 'root_not_object', message: 'inputSchema: MCP expects a root with "type": "object"' });
  }
  const refused = inputVerdict?.ok === false || outputVerdict?.ok === false;
  return { name, fingerprint, verdict: refused ? 'refused' : 'accepted', input: inputVerdict, output: outputVerdict, warnings };
}

/** Whether the root is `type: "object"`, following a root `$ref` chain within the document (zod-to-json-schema style). */
function declaresObjectRoot(schema: unknown): boolean {
  let node = schema;
  for (let hops = 0; hops < 8 && typeof node === 'object' && node !== null; hops++) {
    const { type, $ref } = node as { type?: unknown; $ref?: unknown };
    if (type === 'object') return true;
    if (typeof $ref !== 'string' || !$ref.startsWith('#/')) return false;
    node = pointerTarget(schema, $ref);
  }
  return false;
}

function pointerTarget(schema: unknown, ref: string): unknown {
  try {
    return ref
      .slice(2)
      .split('/')
      .map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, token) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[token] : undefined), schema);
  } catch {
    return undefined;
  }
}

/** Why a refused tool is refused: the first of its schemas that was refused; undefined for an accepted tool. */
export function toolRefusal(verdict: ToolVerdict): { readonly code: string; readonly message: string } | undefined {
  if (verdict.verdict !== 'refused') return undefined;
  const side = [verdict.input, verdict.output].find((s) => s !== null && !s.ok);
  return side && !side.ok ? { code: side.code, message: side.message } : { code: 'refused', message: 'refused' };
}
