// The patterns room's entry for other layers: the page's worker imports it with `import()` when a request has a
// pattern, so re2js is a chunk of its own (src/worker/page-entry.ts). Files inside src/engine import the room's
// files directly.
export { installRe2 } from './install-re2.ts';
