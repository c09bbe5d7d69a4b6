// core/: the engine assembled: createEngine, compile, validate (and its exact-number path), cache weights, the LRU.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.
export { type CompileResult, compileSchema } from './compile-schema.ts';
export { createEngine, type Engine, type EngineOptions } from './create-engine.ts';
export { EngineError } from './engine-error.ts';
export { type HeldState, heldStateOf, stillHolds } from './held-schema.ts';
export { createLruCache } from './lru-cache.ts';
