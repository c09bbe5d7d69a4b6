// numbers/: numbers as JSON means them: exact decimals past what a double holds, and the positive bounds of a policy.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.

export { isPositiveInteger, positiveIntegerText } from './positive-integer.ts';
