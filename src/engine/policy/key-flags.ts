// Which of the policy walk's per-node steps a key can take part in, so the walk reads only the keys a node has.

import type { Dialect } from '../../protocol/dialect.ts';
import { foreignKeywords } from '../schema/schema-keywords.ts';

/** Bits of a node's keys (walk-schema.ts): a step whose bit no key has cannot apply to the node. */
export const KeyFlag = {
  Foreign: 1,
  UnknownObject: 2,
  OtherId: 4,
  Required: 8,
  Format: 16,
  Ref: 32,
  Id: 64,
  Anchor: 128,
  DynamicAnchor: 256,
  RecursiveAnchor: 512,
  UniqueItems: 1024,
  Pattern: 2048,
  RecursiveRef: 4096,
} as const;

const byDialect = new Map<Dialect, ReadonlyMap<string, number>>();

/** Each key the walk reads in `dialect`, with its bits (`UnknownObject` depends on the value: the walk sets it). */
export function keyFlags(dialect: Dialect): ReadonlyMap<string, number> {
  let flags = byDialect.get(dialect);
  if (flags === undefined) {
    const table = new Map<string, number>();
    const add = (key: string, bit: number): void => void table.set(key, (table.get(key) ?? 0) | bit);
    for (const keyword of foreignKeywords(dialect)) add(keyword, KeyFlag.Foreign);
    add(dialect === 'draft-04' ? '$id' : 'id', KeyFlag.OtherId);
    add(dialect === 'draft-04' ? 'id' : '$id', KeyFlag.Id);
    add('required', KeyFlag.Required);
    add('format', KeyFlag.Format);
    add('$ref', KeyFlag.Ref);
    add('$anchor', KeyFlag.Anchor);
    add('$dynamicAnchor', KeyFlag.DynamicAnchor);
    add('$recursiveAnchor', KeyFlag.RecursiveAnchor);
    add('uniqueItems', KeyFlag.UniqueItems);
    add('pattern', KeyFlag.Pattern);
    add('$recursiveRef', KeyFlag.RecursiveRef);
    flags = table;
    byDialect.set(dialect, flags);
  }
  return flags;
}
