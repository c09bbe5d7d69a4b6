// What a caller's schema object held when it was last read, to tell on a later call whether it changed: the one rule
// the engine (by identity) and the worker-mode host (by fingerprint to its worker) both apply.
import { type JsonSnapshot, matchesSnapshot, snapshotOf } from '../json/json-snapshot.ts';
import { isDeepFrozenJson } from './frozen-schema.ts';

/** `frozen`: deeply frozen, so it cannot change. Otherwise a snapshot of what its canonical text reads. */
export type HeldState = 'frozen' | JsonSnapshot;

/** The state a schema object holds now, or undefined when it cannot be read (then nothing is remembered). */
export function heldStateOf(schema: object): HeldState | undefined {
  return isDeepFrozenJson(schema) ? 'frozen' : snapshotOf(schema);
}

/** Whether a schema object still holds a state taken earlier. */
export function stillHolds(schema: object, state: HeldState): boolean {
  return state === 'frozen' || matchesSnapshot(schema, state);
}
