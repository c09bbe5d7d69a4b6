import { RE2JS } from 're2js';
import { provideRe2 } from './re2-library.ts';

/** Provides re2js to the engine: what a worker that loads the linear-time matcher on demand imports (index.ts). */
export function installRe2(): void {
  provideRe2(RE2JS);
}
