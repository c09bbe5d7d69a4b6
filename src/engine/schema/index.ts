// What other layers take from the schema room: only what needs no engine around it.
export { hasPatternKeys } from './pattern-keys.ts';
