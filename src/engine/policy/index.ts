// policy/: the static policy pass: bounds, dialects, keyword types, refs, expansion.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.
export { defaultPolicy, policyHash, resolvePolicy } from './policy.ts';
