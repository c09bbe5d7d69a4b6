import { isLosslessNumber } from 'lossless-json';

/**
 * A flat record of everything `canonicalJson` reads from a value: each object's own enumerable keys in their order,
 * each array's length, each exact number's digits and each other value as it is. A value that still matches it
 * has the same canonical text (docs/architecture.md#fingerprints-and-caches), so a caller's schema object seen before
 * is checked by one walk, without writing any text: several times cheaper than `JSON.stringify` and comparing, and
 * it also sees what that text cannot (NaN where null stood, a member `toJSON` would hide).
 */
export type JsonSnapshot = readonly unknown[];

// Module-private objects: no caller can hold one, so no value of theirs is taken for a marker.
const objectMark = Object.freeze({});
const arrayMark = Object.freeze({});
const exactMark = Object.freeze({});
const endMark = Object.freeze({});

/** The snapshot of a value, or undefined when reading it throws (a getter, a stack too deep). */
export function snapshotOf(value: unknown): JsonSnapshot | undefined {
  const out: unknown[] = [];
  try {
    record(value, out);
  } catch {
    return undefined;
  }
  return out;
}

/**
 * Whether a value still reads as its snapshot. Stricter than canonical equality (keys put back in another order do
 * not match), never looser; false when reading the value throws, so the caller hashes it afresh (fail closed).
 */
export function matchesSnapshot(value: unknown, snapshot: JsonSnapshot): boolean {
  try {
    return match(value, snapshot, 0) === snapshot.length;
  } catch {
    return false;
  }
}

function record(value: unknown, out: unknown[]): void {
  if (typeof value !== 'object' || value === null) {
    out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    out.push(arrayMark, value.length);
    for (let i = 0; i < value.length; i++) record(value[i], out);
    return;
  }
  if (isLosslessNumber(value)) {
    out.push(exactMark, (value as { value: unknown }).value);
    return;
  }
  out.push(objectMark);
  for (const key of Object.keys(value)) {
    out.push(key);
    record((value as Record<string, unknown>)[key], out);
  }
  out.push(endMark);
}

/** The index just past the value's record, or -1 where it differs. Its depth is bounded by the snapshot's. */
function match(value: unknown, snapshot: JsonSnapshot, at: number): number {
  // A scalar, a function or a symbol is kept as it is; an object never equals a marker it could not hold.
  if (typeof value !== 'object' || value === null) return snapshot[at] === value ? at + 1 : -1;
  if (Array.isArray(value)) {
    if (snapshot[at] !== arrayMark || snapshot[at + 1] !== value.length) return -1;
    let next = at + 2;
    for (let i = 0; i < value.length && next >= 0; i++) next = match(value[i], snapshot, next);
    return next;
  }
  if (isLosslessNumber(value)) {
    return snapshot[at] === exactMark && snapshot[at + 1] === (value as { value: unknown }).value ? at + 2 : -1;
  }
  if (snapshot[at] !== objectMark) return -1;
  let next = at + 1;
  // for-in visits own keys in Object.keys' order, then inherited ones (skipped), without allocating a key list.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (snapshot[next] !== key) return -1;
    next = match((value as Record<string, unknown>)[key], snapshot, next + 1);
    if (next < 0) return -1;
  }
  return snapshot[next] === endMark ? next + 1 : -1;
}
