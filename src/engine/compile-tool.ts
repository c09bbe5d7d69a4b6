import type { SchemaVerdict, ToolVerdict } from '../protocol/tool.ts';
import type { SchemaWarning } from '../protocol/warning.ts';
import type { CompileResult } from './compile-schema.ts';

/** A tool's compiled schemas, kept by fingerprint for later argument and result checks. */
export interface CompiledTool {
  readonly name: string;
  readonly fingerprint: string;
  readonly input: CompileResult | null;
  readonly output: CompileResult | null;
  readonly verdict: ToolVerdict;
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
