/** What hashing an array's items found, and what it cost. */
export interface DuplicateScan {
  /**
   * The smallest index whose item equals another item of the array (the row where a pairwise scan in (j, k)
   * order stops), or -1 when every item is distinct.
   */
  readonly firstDuplicate: number;
  /** Work done: one per JSON node hashed or compared, plus one per 64 characters of its strings. */
  readonly cost: number;
  /** JSON nodes of each item that is an object or array (0 for a primitive): what a deep comparison may walk. */
  readonly sizes: readonly number[];
}

/**
 * Finds equal items in expected linear time, as JSON equality has it: numbers by value (1 and 1.0 are one number;
 * -0 is 0), objects whatever their key order. Primitives are keyed by themselves; objects and arrays by a
 * structural hash (order-independent over an object's members) and compared exactly when hashes meet. So
 * `uniqueItems` costs the instance's size, not its length squared.
 */
export function findDuplicates(items: readonly unknown[]): DuplicateScan {
  const meter = { cost: 0 };
  const numbers = new Map<number, number>();
  const strings = new Map<string, number>();
  const others = new Map<unknown, number>();
  const structured = new Map<number, number[]>();
  const sizes: number[] = [];
  let firstDuplicate = -1;
  const found = (seen: number): void => {
    if (firstDuplicate === -1 || seen < firstDuplicate) firstDuplicate = seen;
  };
  for (const [index, item] of items.entries()) {
    meter.cost++;
    if (typeof item === 'number') {
      sizes.push(0);
      const key = item === 0 ? 0 : item;
      const seen = numbers.get(key);
      if (seen === undefined) numbers.set(key, index);
      else found(seen);
    } else if (typeof item === 'string') {
      sizes.push(0);
      meter.cost += item.length >>> 6;
      const seen = strings.get(item);
      if (seen === undefined) strings.set(item, index);
      else found(seen);
    } else if (typeof item !== 'object' || item === null) {
      sizes.push(0);
      const seen = others.get(item);
      if (seen === undefined) others.set(item, index);
      else found(seen);
    } else {
      const before = meter.cost;
      const hash = hashOf(item, meter);
      sizes.push(meter.cost - before + 1);
      const bucket = structured.get(hash);
      if (bucket === undefined) structured.set(hash, [index]);
      else {
        const seen = bucket.find((other) => jsonEqual(items[other], item, meter));
        if (seen === undefined) bucket.push(index);
        else found(seen);
      }
    }
  }
  return { firstDuplicate, cost: meter.cost, sizes };
}

const view = new DataView(new ArrayBuffer(8));

/** A 32-bit mix (murmur3's finaliser), so nearby inputs spread. */
function mix(h: number): number {
  let x = h | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}

function hashString(text: string, seed: number): number {
  let h = seed ^ text.length;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix(h);
}

/** Equal JSON values hash equally: numbers by value, object members summed (so key order does not matter). */
function hashOf(value: unknown, meter: { cost: number }): number {
  meter.cost++;
  switch (typeof value) {
    case 'number':
      view.setFloat64(0, value === 0 ? 0 : value);
      return mix(view.getInt32(0) ^ mix(view.getInt32(4) ^ 0x9e3779b9));
    case 'string':
      meter.cost += value.length >>> 6;
      return hashString(value, 0x2545f491);
    case 'boolean':
      return value ? 0x1b873593 : 0x5bd1e995;
    default:
      break;
  }
  if (value === null || typeof value !== 'object') return 0x27d4eb2f;
  // Depth is bounded by `maxInstanceDepth`, so recursion here stays shallow.
  if (Array.isArray(value)) {
    let h = 0x165667b1 ^ value.length;
    for (const item of value) h = mix(Math.imul(h, 31) + hashOf(item, meter));
    return h;
  }
  const record = value as Record<string, unknown>;
  let sum = 0;
  let count = 0;
  for (const key of Object.keys(record)) {
    meter.cost += 1 + (key.length >>> 6);
    sum = (sum + mix(hashString(key, 0x7f4a7c15) ^ hashOf(record[key], meter))) | 0;
    count++;
  }
  return mix(sum ^ Math.imul(count, 0x3c6ef372));
}

/** Deep JSON equality, independent of key order; charges each node compared. */
function jsonEqual(a: unknown, b: unknown, meter: { cost: number }): boolean {
  meter.cost++;
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], other[i], meter)) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key], meter)) return false;
  return true;
}
