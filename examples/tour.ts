// `npm start`: a short tour of the CLI on the example tools, printed as the commands a user would type.
import { main } from '../src/cli/main.ts';
import { nodeIo } from '../src/cli/node-io.ts';

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
