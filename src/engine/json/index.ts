// json/: JSON values and text: copy, parse, canonical form, fingerprints, paths, type names, byte counts.
// The room's entry for other layers (test/rooms.test.ts); files inside src/engine import each other directly.

export { exactJsonText } from './exact-json-text.ts';
export { canonicalJson, fingerprint, type HashText, hashText, toolFingerprint, toolFingerprintIfAny } from './fingerprint.ts';
export { isJsonObject } from './is-json-object.ts';
export { type ParseJsonLimits, parseJson } from './parse-json.ts';
