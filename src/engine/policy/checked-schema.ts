// What the policy pass hands on: a checked schema (work and core read it).

import type { Dialect } from '../../protocol/dialect.ts';
import type { SchemaWarning } from '../../protocol/warning.ts';
import type { BigNumberSite } from '../json/copy-json.ts';
import type { SchemaIndex, SchemaObject } from '../schema/schema-types.ts';

/** A schema that passed every static check: the engine's own normalised copy and what was learned about it. */
export interface CheckedSchema {
  readonly root: SchemaObject | boolean;
  readonly dialect: Dialect;
  readonly index: SchemaIndex;
  readonly warnings: readonly SchemaWarning[];
  /** Numbers in the schema a double cannot hold exactly. */
  readonly bigNumbers: readonly BigNumberSite[];
  /** UTF-8 bytes of the schema's JSON encoding. */
  readonly bytes: number;
  /** JSON values in the schema (scalars, arrays and objects). */
  readonly values: number;
  /** Whether some object of `root` has an own key `pattern` or `patternProperties` (over-approximates, as `hasPatternKeys`). */
  readonly patternKeys: boolean;
  /** Heap bytes the compiled schema will retain, as estimated before compiling (within `maxCompiledBytes`). */
  readonly retained: number;
  /** Each `$ref`/`$recursiveRef` holder's targets, as `resolveRefs` found them (the work estimate follows them). */
  readonly targets: ReadonlyMap<SchemaObject, readonly (SchemaObject | boolean)[]>;
}
