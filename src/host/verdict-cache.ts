import type { SchemaVerdict, ToolVerdict } from '../protocol/tool.ts';

/**
 * Where tool verdicts persist between pages or processes, keyed by verdict format + engine version + adapter +
 * policy + fingerprint. What a cache returns is checked before use (`isToolVerdict`): anything else is a miss.
 */
export interface VerdictCache {
  get(key: string): Promise<ToolVerdict | undefined>;
  set(key: string, verdict: ToolVerdict): Promise<void>;
}

/** A cache in memory (the default in Node): verdicts last as long as the process. */
export function createMemoryVerdictCache(): VerdictCache {
  const entries = new Map<string, ToolVerdict>();
  return {
    get: async (key) => entries.get(key),
    set: async (key, verdict) => {
      entries.set(key, verdict);
    },
  };
}

type Loose = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);

const isMessage = (value: unknown): boolean => isRecord(value) && typeof value.code === 'string' && typeof value.message === 'string';

const isSchemaVerdict = (value: unknown): value is SchemaVerdict =>
  isRecord(value) && (value.status === 'accepted' || (value.status === 'refused' && isMessage(value.refusal)));

/**
 * Whether a stored value is a well-formed tool verdict of the current shape, refused exactly when one of its schemas
 * is. Fails closed: a verdict stored in an older shape (`verdict`, `ok`), or damaged, is read as no verdict at all, so
 * the tool is compiled again rather than taken as accepted.
 */
export function isToolVerdict(value: unknown): value is ToolVerdict {
  if (!isRecord(value) || typeof value.name !== 'string' || typeof value.fingerprint !== 'string') return false;
  if (value.status !== 'accepted' && value.status !== 'refused') return false;
  const sides = [value.input, value.output];
  if (!sides.every((side) => side === null || isSchemaVerdict(side))) return false;
  if (!Array.isArray(value.warnings) || !value.warnings.every(isMessage)) return false;
  const refused = sides.some((side) => (side as SchemaVerdict | null)?.status === 'refused');
  return value.status === (refused ? 'refused' : 'accepted');
}
