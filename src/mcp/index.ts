// MCP rules shared by every surface (host adapter, page, gateway, CLI): pure, no I/O; may import protocol and engine.

export { malformedToolMessage, toolListRefusals } from '../engine/tools/index.ts';
export { refusedToolMessage, unknownToolMessage } from './call-messages.ts';
export { judgeToolList } from './judge-tool-list.ts';
export { listAsSent, type MessageTransport, resultAsSent } from './list-as-sent.ts';
export { maxToolListPages, maxToolsPerListing } from './tool-list-limits.ts';
export { readToolListPage, type ToolListPage } from './tool-list-result.ts';
