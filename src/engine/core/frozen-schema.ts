import { jsonObjectPrototype } from '../json/copy-json.ts';

/**
 * Whether a value can never change again, so its fingerprint may be remembered by identity: every object in it is
 * frozen, has a plain prototype (`Object.prototype`, `Array.prototype`, null, or the engine's own) and holds only
 * data properties (a frozen getter can still answer differently each time). Anything else, or anything that throws
 * while looked at, is false: the engine then reads the value afresh on every call (fail closed). Reads descriptors
 * only, so no getter runs; iterative, so depth costs no stack; a cycle is walked once.
 */
export function isDeepFrozenJson(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  try {
    if (!Object.isFrozen(value)) return false;
    const seen = new Set<object>();
    const stack: object[] = [value];
    while (stack.length > 0) {
      const node = stack.pop() as object;
      if (seen.has(node)) continue;
      seen.add(node);
      if (!Object.isFrozen(node) || !plainPrototype(node)) return false;
      for (const key of Object.keys(node)) {
        const descriptor = Object.getOwnPropertyDescriptor(node, key);
        if (descriptor === undefined || !('value' in descriptor)) return false;
        const child: unknown = descriptor.value;
        if (typeof child === 'object' && child !== null) stack.push(child);
      }
    }
    return true;
  } catch {
    return false;
  }
}

function plainPrototype(node: object): boolean {
  const proto: unknown = Object.getPrototypeOf(node);
  if (Array.isArray(node)) return proto === Array.prototype;
  return proto === Object.prototype || proto === null || proto === jsonObjectPrototype;
}
