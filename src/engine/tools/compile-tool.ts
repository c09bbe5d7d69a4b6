import type { Refused } from '../../protocol/outcome.ts';
import type { SchemaVerdict, ToolVerdict } from '../../protocol/tool.ts';
import type { SchemaWarning } from '../../protocol/warning.ts';
import type { CompileResult } from '../core/compile-schema.ts';
import { toolFingerprintIfAny } from '../json/fingerprint.ts';
import { isJsonObject } from '../json/is-json-object.ts';
import { jsonKeyBytes } from '../json/json-string-bytes.ts';
import { truncate } from '../json/truncate.ts';

/** A tool's compiled schemas, kept by fingerprint for later argument and result checks. */
export interface CompiledTool {
  readonly name: string;
  readonly fingerprint: string;
  readonly input: CompileResult | null;
  readonly output: CompileResult | null;
  readonly verdict: ToolVerdict;
}

/**
 * The longest tool name accepted, in characters (Unicode code points): the MCP spec's "Tool names SHOULD be between 1
 * and 128 characters in length (inclusive)" (2025-11-25 and 2026-07-28, server/tools, "Tool names").
 */
export const maxToolNameLength = 128;

/** A name's length in code points; a name of at most 128 UTF-16 units is at most 128 characters, so it is not scanned. */
function nameLength(name: string): number {
  return name.length <= maxToolNameLength ? name.length : countCodePoints(name);
}

function countCodePoints(name: string): number {
  let count = 0;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && (name.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
}

/**
 * The verdicts a `tools/list` result forces whatever the tools' schemas say (`invalid_tool`), by index; undefined
 * where the definition is judged by its schemas. Refused: an entry that is not an object with a string `name`; an
 * empty name; a name over `maxToolNameLength` characters (the MCP spec: names SHOULD be 1–128 characters; a longer
 * one costs every store and cache it enters, and a message quoting it); a name with a lone UTF-16 surrogate (no
 * canonical form, so no fingerprint); every definition of
 * a name the list holds more than once, since which one a call means cannot be known (never the last one,
 * silently); and a definition the MCP spec calls malformed (`malformedToolMessage`), which is left out so that it
 * does not take the other tools down with it (docs/decisions/015-malformed-tools-excluded.md). A duplicate's
 * verdict has the fingerprint `""` (it judges the list, not a definition); the others keep the definition's
 * fingerprint where it has one. Either way nothing may cache these verdicts or look the tool up by them: every
 * surface applies this to the whole list it was given. A list read page by page is one list: `earlier` counts the
 * names on its pages before this one. `revision` is the negotiated MCP revision, where one is known.
 */
export function toolListRefusals(
  tools: readonly unknown[],
  earlier: ReadonlyMap<string, number> = new Map(),
  revision?: string,
): (ToolVerdict | undefined)[] {
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
    const definition = tools[i] as { name: string; inputSchema?: unknown; outputSchema?: unknown };
    // An empty name is wrong whatever the list holds, so that verdict keeps the definition's fingerprint.
    if (name === '') return refusedTool(name, `tools[${i}] has an empty "name"`, toolFingerprintIfAny(definition));
    const length = nameLength(name);
    if (length > maxToolNameLength) return refusedTool(name, `tool name ${quoted} is ${length} characters long: over ${maxToolNameLength}`);
    if (jsonKeyBytes(name) < 0) return refusedTool(name, `tool name ${quoted} holds a lone UTF-16 surrogate: not well-formed Unicode`);
    const count = counts.get(name) ?? 1;
    if (count > 1) return refusedTool(name, `tool name ${quoted} appears ${count} times in this list: every definition of it is refused`);
    const malformed = malformedToolMessage(definition, revision);
    if (malformed !== undefined) return refusedTool(name, malformed, toolFingerprintIfAny(definition));
    return undefined;
  });
}

/**
 * Why the MCP spec calls a tool definition malformed, or undefined. Both revisions schemaval speaks (2025-11-25 and
 * 2026-07-28) require an `inputSchema` that is a JSON object with `"type": "object"` at its root (literally: a root
 * `$ref` or `"type": ["object"]` is not that), and an `outputSchema`, where there is one, that is a JSON object.
 * 2025-11-25 also restricts the `outputSchema` root to `"type": "object"` (its `structuredContent` is an object);
 * 2026-07-28 lifts that, so the root of `outputSchema` is checked only when `revision` names an earlier revision.
 */
export function malformedToolMessage(
  tool: { readonly name: string; readonly inputSchema?: unknown; readonly outputSchema?: unknown },
  revision?: string,
): string | undefined {
  const quoted = JSON.stringify(truncate(tool.name, 60));
  const input = tool.inputSchema;
  if (input === undefined) return `tool ${quoted} has no "inputSchema": MCP requires one, with "type": "object" at its root`;
  if (!isJsonObject(input)) return `tool ${quoted}: "inputSchema" is ${kindOf(input)}, not a JSON Schema object with "type": "object"`;
  if (input.type !== 'object') return `tool ${quoted}: "inputSchema" has ${rootType(input)} at its root; MCP requires "type": "object"`;
  const output = tool.outputSchema;
  if (output === undefined) return undefined;
  if (!isJsonObject(output)) return `tool ${quoted}: "outputSchema" is ${kindOf(output)}, not a JSON Schema object`;
  if (revision !== undefined && revision < '2026-07-28' && output.type !== 'object') {
    return `tool ${quoted}: "outputSchema" has ${rootType(output)} at its root; MCP ${truncate(revision, 20)} requires "type": "object"`;
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  return `of type ${typeof value}`;
}

function rootType(schema: { readonly type?: unknown }): string {
  if (schema.type === undefined) return 'no "type"';
  let text: string;
  try {
    text = JSON.stringify(schema.type) ?? String(schema.type);
  } catch {
    text = String(schema.type);
  }
  return `"type": ${truncate(text, 40)}`;
}

/** A tool refused for its definition rather than its schemas: reported on `input`, like a refused input schema. */
function refusedTool(name: string, message: string, fingerprint = ''): ToolVerdict {
  return {
    name,
    fingerprint,
    status: 'refused',
    input: { status: 'refused', refusal: { code: 'invalid_tool', message } },
    output: null,
    warnings: [],
  };
}

/** Builds a tool's verdict from its schemas' compile results (docs/architecture.md#cli: refused if either schema is). */
export function toolVerdict(name: string, fingerprint: string, input: CompileResult | null, output: CompileResult | null): ToolVerdict {
  // No closure per tool: a tools/list of 10,000 builds 10,000 verdicts.
  const warnings: SchemaWarning[] = [];
  const inputVerdict = sideVerdict('inputSchema', input, warnings);
  const outputVerdict = sideVerdict('outputSchema', output, warnings);
  const refused = inputVerdict?.status === 'refused' || outputVerdict?.status === 'refused';
  return { name, fingerprint, status: refused ? 'refused' : 'accepted', input: inputVerdict, output: outputVerdict, warnings };
}

/** One schema's part of a tool verdict; its warnings, labelled, go to `warnings`. */
function sideVerdict(label: string, result: CompileResult | null, warnings: SchemaWarning[]): SchemaVerdict | null {
  if (result === null) return null;
  if (result.status === 'refused')
    return { status: 'refused', refusal: { code: result.refusal.code, message: `${label}: ${result.refusal.message}` } };
  for (const warning of result.schema.warnings) warnings.push({ code: warning.code, message: `${label}: ${warning.message}` });
  return { status: 'accepted' };
}

/** Why a refused tool is refused: the first of its schemas that was refused; undefined for an accepted tool. */
export function toolRefusal(verdict: ToolVerdict): { readonly code: string; readonly message: string } | undefined {
  if (verdict.status !== 'refused') return undefined;
  const side = [verdict.input, verdict.output].find((s): s is Refused => s !== null && s.status === 'refused');
  return side?.refusal ?? { code: 'refused', message: 'refused' };
}
