// The state one collection shares across its files: cfworker's units, the leaves found so far and the caches that
// keep the walk linear. Kept apart so the collection and the choice of a closest branch read one definition.
import type { LeafFailure, SchemaNode } from '../../schema/schema-validator-adapter.ts';
import type { Pointer } from './cfworker-pointers.ts';

/** The fields of a cfworker output unit the collection reads. */
export interface OutputUnitLike {
  readonly keyword: string;
  readonly keywordLocation: string;
  readonly instanceLocation: string;
}

/** What the collection needs besides the units. */
export interface CollectInput {
  /** The schema cfworker validated against and its lookup, to find the subschema behind each location. */
  readonly root: SchemaNode | boolean;
  readonly lookup: Record<string, unknown>;
  /** The validated value, to name the missing properties of `required`-like keywords. */
  readonly instance: unknown;
  /** Stop after this many leaves. */
  readonly limit: number;
}

/** The char code of `/`, the separator of JSON Pointer segments. */
export const slash = 47;

export interface Located {
  readonly schema: SchemaNode;
  readonly schemaPath: readonly string[];
}

/**
 * A leaf not built yet: the index of its unit, or (for an `anyOf`/`oneOf`) its keyword, cfworker's instance
 * location and how to build it. Only reported leaves are built.
 */
export type Entry = number | { readonly keyword: string; readonly where: string; readonly leaf: () => LeafFailure };

/**
 * Leaves found so far at one level: the whole result, or one alternative of an `anyOf`/`oneOf`. Most are kept
 * as unit indexes and only built if they are reported.
 */
export interface Sink {
  readonly entries: Entry[];
  readonly limit: number;
  /** A leaf arrived when the sink was full: there is more than it holds. */
  overflow: boolean;
}

/** The collection's state. Its maps are made on first use: most outputs need one or two of them, or none. */
export interface Context {
  readonly input: CollectInput;
  readonly units: readonly OutputUnitLike[];
  readonly ends: readonly number[];
  /**
   * Items that fail a `contains` subschema stay in cfworker's output, beside the unit that counts them, only
   * when `minContains` failed (otherwise they are dropped or sit under the `contains` unit).
   */
  readonly containsNoise: boolean;
  /** Per unit after the first of its run: its place among the `required`-like units of one location. */
  ordinals?: Map<number, number>;
  /** Units inside `propertyNames`, whose subject is the property's name. */
  propertyNames?: Set<number>;
  /** The subschema behind each keyword location seen so far, by its decoded pointer. */
  located?: Map<Pointer, Located>;
  /** The last answer of `located`, kept apart from it. */
  lastLocated?: { readonly pointer: Pointer; readonly located: Located };
  /** Missing names per `required`-like unit location. */
  missing?: Map<string, NonNullable<LeafFailure['missing']>[]>;
  /** The last answer of `missing`, asked again by the rest of its run. */
  lastMissing?: { readonly unit: OutputUnitLike; readonly names: NonNullable<LeafFailure['missing']>[] };
}

export const createSink = (limit: number): Sink => ({ entries: [], limit, overflow: false });

export function add(sink: Sink, entry: Entry): void {
  if (sink.entries.length >= sink.limit) sink.overflow = true;
  else sink.entries.push(entry);
}

export const whereOf = (context: Context, entry: Entry): string =>
  typeof entry === 'number' ? (context.units[entry] as OutputUnitLike).instanceLocation : entry.where;
export const keywordOf = (context: Context, entry: Entry): string =>
  typeof entry === 'number' ? (context.units[entry] as OutputUnitLike).keyword : entry.keyword;

/** `text.startsWith(prefix)`, which is several times slower in V8 than comparing a slice. */
export const startsWith = (text: string, prefix: string): boolean =>
  text.length >= prefix.length && text.slice(0, prefix.length) === prefix;
