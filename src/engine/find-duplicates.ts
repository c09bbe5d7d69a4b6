/** What hashing an array's items found, and what it cost. */
export interface DuplicateScan {
  /**
   * The smallest index whose item equals another item of the array (the row where a pairwise scan in (j, k)
   * order stops), or -1 when every item is distinct.
   */
  readonly firstDuplicate: number;
  /** Work units spent: one per JSON node of the items plus one per 64 characters of their strings. */
  readonly cost: number;
  /** JSON nodes of each item that is an object or array (0 for a primitive): what a deep comparison may walk. */
  readonly sizes: readonly number[];
}

/**
 * Finds equal items in expected linear time by giving each a canonical key: numbers by value (1 and 1.0 are
 * one number; -0 is 0), objects independent of key order. `uniqueItems` then costs the instance's size, not
 * its length squared.
 */
export function findDuplicates(items: readonly unknown[]): DuplicateScan {
  const firstAt = new Map<string, number>();
  const sizes: number[] = [];
  let firstDuplicate = -1;
  const meter = { cost: 0 };
  for (const [index, item] of items.entries()) {
    const before = meter.cost;
    const key = canonicalKey(item, meter);
    sizes.push(typeof item === 'object' && item !== null ? meter.cost - before : 0);
    const seen = firstAt.get(key);
    if (seen === undefined) firstAt.set(key, index);
    else if (firstDuplicate === -1 || seen < firstDuplicate) firstDuplicate = seen;
  }
  return { firstDuplicate, cost: meter.cost, sizes };
}

/** A string equal for two JSON values exactly when a deep, order-independent comparison calls them equal. */
function canonicalKey(value: unknown, meter: { cost: number }): string {
  meter.cost++;
  switch (typeof value) {
    case 'number':
      return `n${value === 0 ? 0 : value}`;
    case 'string':
      meter.cost += value.length >>> 6;
      return `s${JSON.stringify(value)}`;
    case 'boolean':
      return value ? 't' : 'f';
    default:
      break;
  }
  if (value === null || typeof value !== 'object') return 'z';
  // Depth is bounded by `maxInstanceDepth`, so recursion here stays shallow.
  if (Array.isArray(value)) return `[${value.map((item) => canonicalKey(item, meter)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const parts: string[] = [];
  for (const key of keys) {
    meter.cost += 1 + (key.length >>> 6);
    parts.push(`${JSON.stringify(key)}:${canonicalKey(record[key], meter)}`);
  }
  return `{${parts.join(',')}}`;
}
