/**
 * The P2P room: Lisk P2P on port 7667 (socketcluster v1 over WebSocket, lisk-p2p envelopes and
 * policies, the engine's procedures and limits), as lisk-sdk v6.1.0 speaks it. See README.md.
 */
export { P2pNetwork, type P2pNetworkEvents, type P2pPeerInfo, type P2pResponse } from './p2p-network.js';
export { DEFAULT_TIMING, p2pOptionsFromConfig, type P2pNetworkOptions, type P2pTiming } from './network-options.js';
export {
  ACCEPTED_MESSAGES,
  SERVED_PROCEDURES,
  type AcceptedMessage,
  type MessageHandler,
  type P2pCallContext,
  type P2pHandlers,
  type ProcedureHandler,
  type ServedProcedure,
} from './handlers.js';
export {
  BLOCKS_PER_ANSWER,
  type BlocksFromIdReader,
  chainProcedures,
  type ChainProceduresOptions,
  emptyTransactionSource,
  type P2pChainSource,
  type P2pTransactionSource,
} from './chain-procedures.js';
export { legacyBlocksFromIdHandler, type P2pLegacySource } from './legacy-procedures.js';
export { decodeNodeInfo, emptyNodeInfoOptions, encodeNodeInfo, type NodeInfo, type NodeInfoOptions } from './node-info.js';
export type { PeerAddress } from './peer-address.js';
export type { IncomingMessage } from './peer.js';
export type { P2pStats } from './stats.js';
export * as p2pSchemas from './schemas.js';
export * from './errors.js';
export { CloseCode, DEFAULT_P2P_PORT, DEFAULT_WS_MAX_PAYLOAD } from './constants.js';
