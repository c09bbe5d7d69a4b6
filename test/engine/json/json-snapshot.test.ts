// A schema object's snapshot: a value matches it only when its canonical text is the one it had (never a false
// match), and an unchanged value always matches (the repeat stays cheap).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import { canonicalJson } from '../../../src/engine/json/canonical-json.ts';
import { matchesSnapshot, snapshotOf } from '../../../src/engine/json/json-snapshot.ts';

type Container = Record<string, unknown> | unknown[];

function containersOf(value: unknown, out: Container[] = []): Container[] {
  if (typeof value === 'object' && value !== null) {
    out.push(value as Container);
    for (const member of Object.values(value)) containersOf(member, out);
  }
  return out;
}

const canonicalOrNone = (value: unknown): string | undefined => {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
};

const edits = ['set', 'delete', 'add', 'nan', 'undefined', 'function', 'reorder', 'exact', 'same'] as const;

/** One edit in place, at a container picked by `at`, member by `pick`. */
function edit(value: unknown, kind: (typeof edits)[number], at: number, pick: number, replacement: unknown): void {
  const containers = containersOf(value);
  const target = containers[at % Math.max(1, containers.length)];
  if (target === undefined) return;
  const keys = Object.keys(target);
  const key = keys.length === 0 ? undefined : (keys[pick % keys.length] as string);
  const record = target as Record<string, unknown>;
  if (kind === 'add') {
    if (Array.isArray(target)) target.push(replacement);
    else record[`k${pick}`] = replacement;
    return;
  }
  if (key === undefined) return;
  if (kind === 'set') record[key] = replacement;
  else if (kind === 'nan') record[key] = Number.NaN;
  else if (kind === 'undefined') record[key] = undefined;
  else if (kind === 'function') record[key] = () => replacement;
  else if (kind === 'exact' && typeof record[key] === 'number') record[key] = new LosslessNumber(String(record[key]));
  else if (kind === 'same') record[key] = structuredClone(record[key]);
  else if (kind === 'delete' && !Array.isArray(target)) delete record[key];
  else if (kind === 'reorder' && !Array.isArray(target)) {
    const member = record[key];
    delete record[key];
    record[key] = member;
  }
}

describe('json snapshot', () => {
  it('matches any JSON value, and a copy of it, as it was', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const snapshot = snapshotOf(value);
        assert.ok(snapshot !== undefined);
        assert.equal(matchesSnapshot(value, snapshot), true);
        assert.equal(matchesSnapshot(structuredClone(value), snapshot), true);
      }),
      { numRuns: 300 },
    );
  });

  it('never matches a value whose canonical text changed, whatever the edit', () => {
    let changed = 0;
    let kept = 0;
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(...edits), fc.nat(), fc.nat(), fc.jsonValue(), (value, kind, at, pick, replacement) => {
        const before = canonicalJson(value);
        const snapshot = snapshotOf(value);
        assert.ok(snapshot !== undefined);
        const edited = structuredClone(value);
        edit(edited, kind, at, pick, replacement);
        const after = canonicalOrNone(edited);
        if (matchesSnapshot(edited, snapshot)) {
          assert.equal(after, before, `a ${kind} edit matched but changed the text`);
          kept++;
        } else if (after !== before) changed++;
      }),
      { numRuns: 600 },
    );
    // Both outcomes were exercised, so neither assertion above holds by default.
    assert.ok(changed > 100, `${changed} edits changed the text and were seen`);
    assert.ok(kept > 20, `${kept} edits kept the text and matched`);
  });

  it('sees NaN where null stood, which JSON text does not show', () => {
    const value: unknown[] = [null, 'a'];
    const snapshot = snapshotOf(value) ?? [];
    value[0] = Number.NaN;
    assert.equal(JSON.stringify(value), '[null,"a"]');
    assert.equal(matchesSnapshot(value, snapshot), false);
  });

  it('tells exact numbers by their digits, and from objects that only look like them', () => {
    const value = { maximum: new LosslessNumber('18446744073709551616') };
    const snapshot = snapshotOf(value) ?? [];
    assert.equal(matchesSnapshot({ maximum: new LosslessNumber('18446744073709551616') }, snapshot), true);
    assert.equal(matchesSnapshot({ maximum: new LosslessNumber('18446744073709551617') }, snapshot), false);
    const plain = { value: '1', isLosslessNumber: true };
    const plainSnapshot = snapshotOf({ n: plain }) ?? [];
    Object.setPrototypeOf(plain, LosslessNumber.prototype);
    assert.equal(matchesSnapshot({ n: plain }, plainSnapshot), false, 'now an exact number to canonicalJson');
  });

  it('reads own keys only, as the canonical text does, and never a key the snapshot lacks', () => {
    const inherited = Object.assign(Object.create({ extra: 1 }) as Record<string, unknown>, { type: 'string' });
    assert.equal(matchesSnapshot(inherited, snapshotOf({ type: 'string' }) ?? []), true);
    // A key Object.prototype answers for must not pass for one the snapshot held.
    assert.equal(matchesSnapshot({ constructor: Object }, snapshotOf({ x: 1 }) ?? []), false);
    assert.equal(matchesSnapshot({ a: undefined }, snapshotOf({ b: 1 }) ?? []), false);
    assert.equal(matchesSnapshot({ maximum: 9n }, snapshotOf({ maximum: 10n }) ?? []), false);
  });

  it('answers no snapshot, and no match, where reading the value throws', () => {
    const throwing = {
      get type(): string {
        throw new Error('no');
      },
    };
    assert.equal(snapshotOf(throwing), undefined);
    assert.equal(matchesSnapshot(throwing, snapshotOf({ type: 'string' }) ?? []), false);
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(snapshotOf(deep), undefined, 'too deep for the stack: no snapshot, no throw');
  });
});
