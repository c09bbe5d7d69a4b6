// re2js linked with the engine, as Node, the edge and the published browser worker load it. The demo page's worker
// build puts an empty module in this file's place (scripts/build-page.mjs) and hands re2js over once it has loaded
// it on demand (src/worker/page-entry.ts), so a visit without patterns never downloads it.
export { RE2JS as bundledRe2 } from 're2js';
