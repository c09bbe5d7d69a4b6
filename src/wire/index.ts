// wire/: the host–worker wire codec, used by src/host and src/worker only: the data lane's compact batches and
// replies, the layout of the shared progress memory, and the back-off both ends poll the lane with (docs/decisions/006-worker-protocol.md). Runtime code, so
// it is not in src/protocol (types only), and no package.json export reaches it: it is no public API.
// The room's entry (test/rooms.test.ts); its types crossing the boundary stay in src/protocol/validator-service.ts.
export { type Backoff, createBackoff } from './backoff.ts';
export { compilesNothing } from './compiles-nothing.ts';
export {
  batchSize,
  expandAnswer,
  getRequest,
  type LaneBatch,
  type LaneReply,
  packReply,
  putRequest,
  startBatch,
  unpackReply,
} from './lane.ts';
export { type ProgressViews, progressMemoryBytes, progressViews } from './progress-memory.ts';
