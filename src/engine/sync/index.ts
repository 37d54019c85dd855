export { Synchronizer, SYNC_PENALTY, type SynchronizerOptions } from './synchronizer.js';
export type { PeerTip, SyncNetwork, SyncPeer } from './sync-network.js';
export type { SyncListener } from './sync-chain.js';
