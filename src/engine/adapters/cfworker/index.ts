// adapters/cfworker/: @cfworker/json-schema behind SchemaValidatorAdapter, its own refusals, and the default engine.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.
export { cfworkerAdapterId } from './adapter-id.ts';
export { createCfworkerAdapter } from './cfworker-adapter.ts';
export { compileSchema, createEngine } from './default-engine.ts';
