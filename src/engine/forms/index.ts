// forms/: elicitation: the form subset, defaults, answers, strict form formats.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.
export { checkElicitationSchema, elicitationDefaults, elicitationMode } from './check-elicitation-schema.ts';
