import { stringify } from 'lossless-json';

/**
 * A JSON value as text that keeps every number exact, for values `parseJson` read (plain JSON, with a lossless-json
 * `LosslessNumber` wherever a double could not hold the number). V8's own `JSON.stringify` first: a tenth of
 * lossless-json's cost, which made a 10,000-tool `tools/list` answer ~60 ms slower in workerd. A `LosslessNumber`
 * comes out of it as an object with its own `isLosslessNumber` key, and a `bigint` makes it throw: only then does
 * lossless-json write the value. A text that merely holds that key is written by lossless-json too: slower, never
 * wrong. Undefined where `JSON.stringify` gives none (`undefined` itself).
 */
export function exactJsonText(value: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // a bigint: lossless-json writes it
    return stringify(value);
  }
  if (text?.includes('"isLosslessNumber"')) return stringify(value);
  return text;
}
