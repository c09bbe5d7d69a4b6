// tools/: tool definitions: verdicts, list refusals, malformed-tool wording.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.
export { malformedToolMessage, toolListRefusals, toolRefusal } from './compile-tool.ts';
