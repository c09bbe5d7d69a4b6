// `npm run tour`: a short tour of the CLI on the example tools, printed as the commands a user would type.
import { scriptArgs } from '../scripts/script-args.mjs';
import { main } from '../src/cli/main.ts';
import { nodeIo } from '../src/cli/node-io.ts';

scriptArgs({
  command: 'npm run tour',
  usage: `usage: npm run tour
runs the CLI from the sources on examples/ (one lint, two validations) and prints each as the npx schemaval
command a user would type, with its output and exit code. Takes no arguments.
  -h, --help  this help`,
  options: {},
});

const commands = [
  ['lint', 'examples/tools.json'],
  ['validate', '--schema', 'examples/weather-input.schema.json', '--instance', 'examples/weather-args.bad.json'],
  ['validate', '--schema', 'examples/weather-input.schema.json', '--instance', 'examples/weather-args.good.json'],
];

for (const argv of commands) {
  process.stdout.write(`\n$ npx schemaval ${argv.join(' ')}\n`);
  const code = await main(argv, nodeIo());
  process.stdout.write(`(exit ${code})\n`);
}
process.stdout.write('\nMore: npx schemaval --help, docs/cli.md\n');
