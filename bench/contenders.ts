// Every validator the benchmark compares, each compiled once for one fixture and ready to validate.
import { Validator } from '@cfworker/json-schema';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import Ajv from 'ajv';
import { compileSchema, type Engine } from '../src/engine/index.ts';
import type { BenchSchema } from './fixtures.ts';
import { compileHyperjump } from './hyperjump.ts';

export type ContenderId =
  | 'schemaval'
  | 'engine'
  | 'tool'
  | 'cfworker'
  | 'cfworker-full'
  | 'ajv'
  | 'sdk-cfworker'
  | 'sdk-ajv'
  | 'sdk-cfworker-call'
  | 'sdk-ajv-call'
  | 'hyperjump'
  | 'hyperjump-basic';

/** One way to validate a fixture's instances; `validate` returns whatever the library returns. */
export interface Contender {
  readonly id: ContenderId;
  readonly label: string;
  readonly async: boolean;
  readonly validate: (instance: unknown) => unknown;
  /** Reads the verdict out of an (awaited) result, to check that every contender agrees. */
  readonly isValid: (result: unknown) => boolean;
}

type SdkSchema = Parameters<CfWorkerJsonSchemaValidator['getValidator']>[0];

const hasValidTrue = (result: unknown): boolean => (result as { valid?: unknown }).valid === true;
/** schemaval's outcome: `status`, not the libraries' `valid`. */
const hasStatusValid = (result: unknown): boolean => (result as { status?: unknown }).status === 'valid';

/** Formats are annotations for tool schemas in schemaval (docs/architecture.md#schema-policy-and-refusal-codes), so this ajv does not assert them either. */
export const createBenchAjv = (): Ajv => new Ajv({ allErrors: true, strict: false, validateFormats: false });

/** Runs `build` without the SDK ajv's console warning per unknown format ("uint64", "int32": one per subschema). */
function quietly<T>(build: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith('unknown format')) warn(...args);
  };
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}

/** Compiles the fixture with every contender. Libraries that stamp the schema get their own deep copy. */
export async function createContenders(fixture: BenchSchema, engine: Engine): Promise<Contender[]> {
  const compiled = compileSchema(fixture.schema);
  if (compiled.status === 'refused') throw new Error(`${fixture.name}: schemaval refused the fixture: ${compiled.refusal.message}`);
  const { schema } = compiled;

  const { fingerprint, result } = await engine.compile(fixture.schema);
  if (result.status === 'refused') throw new Error(`${fixture.name}: the engine refused the fixture: ${result.refusal.message}`);
  const [verdict] = await engine.compileTools([{ name: `bench_${fixture.name}`, inputSchema: fixture.schema }]);
  if (verdict === undefined || verdict.status !== 'accepted') throw new Error(`${fixture.name}: the engine refused the tool`);
  const toolFingerprint = verdict.fingerprint;

  const full = new Validator(structuredClone(fixture.schema), fixture.draft, false);
  const short = new Validator(structuredClone(fixture.schema), fixture.draft, true);
  const ajv = createBenchAjv().compile(structuredClone(fixture.schema));
  const sdkCfworker = new CfWorkerJsonSchemaValidator({ draft: fixture.draft }).getValidator(structuredClone(fixture.schema) as SdkSchema);
  const sdkAjv = quietly(() => new AjvJsonSchemaValidator().getValidator(structuredClone(fixture.schema) as SdkSchema));
  // The SDK's server asks for a validator on every elicitation answer (getValidator(requestedSchema)(content)): with
  // the same schema object each time, ajv answers from its cache keyed by the object and cfworker builds a new
  // Validator (dereferencing the schema) every call.
  const sdkCfworkerProvider = new CfWorkerJsonSchemaValidator({ draft: fixture.draft });
  const sdkCfworkerSchema = structuredClone(fixture.schema) as SdkSchema;
  const sdkAjvProvider = new AjvJsonSchemaValidator();
  const sdkAjvSchema = structuredClone(fixture.schema) as SdkSchema;
  quietly(() => sdkAjvProvider.getValidator(sdkAjvSchema));
  const hyperjump = await compileHyperjump(fixture);

  return [
    {
      id: 'schemaval',
      label: 'schemaval compileSchema().validate',
      async: false,
      validate: (i) => schema.validate(i),
      isValid: hasStatusValid,
    },
    {
      id: 'engine',
      label: 'schemaval engine.validate(fingerprint)',
      async: false,
      validate: (i) => engine.validate(fingerprint, i),
      isValid: hasStatusValid,
    },
    {
      id: 'tool',
      label: 'schemaval engine.validateArguments(tool)',
      async: false,
      validate: (i) => engine.validateArguments(toolFingerprint, i),
      isValid: hasStatusValid,
    },
    {
      id: 'cfworker',
      label: 'cfworker Validator, its default (shortCircuit=true)',
      async: false,
      validate: (i) => short.validate(i),
      isValid: hasValidTrue,
    },
    {
      id: 'cfworker-full',
      label: 'cfworker Validator shortCircuit=false',
      async: false,
      validate: (i) => full.validate(i),
      isValid: hasValidTrue,
    },
    { id: 'ajv', label: 'ajv allErrors, formats off (codegen/eval)', async: false, validate: (i) => ajv(i), isValid: (r) => r === true },
    {
      id: 'sdk-cfworker',
      label: 'MCP SDK CfWorker provider (shortcircuit)',
      async: false,
      validate: (i) => sdkCfworker(i),
      isValid: hasValidTrue,
    },
    { id: 'sdk-ajv', label: 'MCP SDK Ajv provider (formats asserted)', async: false, validate: (i) => sdkAjv(i), isValid: hasValidTrue },
    {
      id: 'sdk-cfworker-call',
      label: '  SDK CfWorker, getValidator(schema)(args) per call',
      async: false,
      validate: (i) => sdkCfworkerProvider.getValidator(sdkCfworkerSchema)(i),
      isValid: hasValidTrue,
    },
    {
      id: 'sdk-ajv-call',
      label: '  SDK Ajv, getValidator(schema)(args) per call',
      async: false,
      validate: (i) => sdkAjvProvider.getValidator(sdkAjvSchema)(i),
      isValid: hasValidTrue,
    },
    {
      id: 'hyperjump',
      label: '@hyperjump/json-schema validator, FLAG output',
      async: false,
      validate: (i) => hyperjump(i),
      isValid: hasValidTrue,
    },
    {
      id: 'hyperjump-basic',
      label: '@hyperjump/json-schema validator, BASIC output',
      async: false,
      validate: (i) => hyperjump(i, 'BASIC'),
      isValid: hasValidTrue,
    },
  ];
}

/** Throws unless every contender finds the valid instance valid and the invalid one invalid. */
export async function checkAgreement(fixture: BenchSchema, contenders: readonly Contender[]): Promise<void> {
  for (const contender of contenders) {
    const valid = contender.isValid(await contender.validate(fixture.valid));
    const invalid = contender.isValid(await contender.validate(fixture.invalid));
    if (!valid || invalid) {
      throw new Error(`${fixture.name}: ${contender.label} says valid→${valid}, invalid→${invalid}; the fixture or the contender is wrong`);
    }
  }
}
