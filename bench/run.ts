// `npm run bench`: reads the options (bench/bench-args.ts), answers --help or a bad option at once, and only then
// loads the sections (bench/run-sections.ts), whose imports take seconds.
import { parseBenchArgs, usage } from './bench-args.ts';

const args = parseBenchArgs();
if (args.kind === 'help') console.log(usage);
else if (args.kind === 'error') {
  console.error(`bench: ${args.message}`);
  process.exitCode = 2;
} else await import('./run-sections.ts');
