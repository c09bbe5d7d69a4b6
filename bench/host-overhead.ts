// Section 5: what withSchemaValidation adds to a callTool over the SDK's in-memory transport.
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createValidator, withSchemaValidation } from '../src/host/node.ts';
import { startFixture } from '../test/helpers/mcp-fixture.ts';
import { defaultHarnessOptions, type Measurement, measure } from './harness.ts';

export interface HostOverhead {
  readonly plain: Measurement;
  readonly inline: Measurement;
  readonly worker: Measurement;
}

const args = { text: 'hello', times: 2 };

/** A real SDK Client and Server over InMemoryTransport: plain, wrapped with an inline validator, wrapped with a worker. */
export async function measureHostOverhead(): Promise<HostOverhead> {
  // Calls unrecorded: the fixture's growing list of them doubled every collection on both sides.
  const plain = await startFixture({ recordCalls: false });
  const inline = await startFixture({ recordCalls: false });
  const worker = await startFixture({ recordCalls: false });
  const inlineValidator = createValidator({ mode: 'inline' });
  const workerValidator = createValidator();
  try {
    const inlineClient = withSchemaValidation(inline.client, { validator: inlineValidator });
    const workerClient = withSchemaValidation(worker.client, { validator: workerValidator });
    await Promise.all([inlineClient.listTools(), workerClient.listTools()]);
    // The plain client goes through request() as the adapter does, so both sides pay the same SDK parsing.
    const call = (client: typeof plain.client) => () =>
      client.request({ method: 'tools/call', params: { name: 'echo', arguments: args } }, CallToolResultSchema);
    const [a, b, c] = await measure(
      [
        { name: 'plain', async: true, run: call(plain.client) },
        { name: 'inline', async: true, run: () => inlineClient.callTool({ name: 'echo', arguments: args }) },
        { name: 'worker', async: true, run: () => workerClient.callTool({ name: 'echo', arguments: args }) },
      ],
      // Steady state: a worker call keeps getting faster for the first second (JIT of both threads, the lane).
      { ...defaultHarnessOptions, warmupMs: 1_500, budgetMs: 6_000, maxRounds: 60 },
    );
    return { plain: a as Measurement, inline: b as Measurement, worker: c as Measurement };
  } finally {
    await Promise.all([plain.close(), inline.close(), worker.close(), inlineValidator.close(), workerValidator.close()]);
  }
}
