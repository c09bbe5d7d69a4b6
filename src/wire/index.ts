// wire/: the host–worker wire codec, used by src/host and src/worker only: the data lane's compact batches and
// replies, and the layout of the shared progress memory (docs/decisions/006-worker-protocol.md). Runtime code, so
// it is not in src/protocol (types only), and no package.json export reaches it: it is no public API.
// The room's entry (test/rooms.test.ts); its types crossing the boundary stay in src/protocol/validator-service.ts.
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
