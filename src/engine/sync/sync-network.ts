/**
 * What the synchronizer needs from the P2P network: the peers it may sync from and three
 * procedures of the Lisk P2P protocol (lisk-sdk 6.1 `framework/src/engine/consensus/network_endpoint.ts`).
 * The network room implements it (wire encoding, timeouts, rate limits); the engine sees blocks
 * as bytes and IDs, never frames.
 */

/** The chain tip a peer announced in its node info (`options` of lisk-sdk's nodeInfo). */
export interface PeerTip {
  readonly height: number;
  readonly maxHeightPrevoted: number;
  readonly blockVersion: number;
  readonly lastBlockID: Buffer;
}

export interface SyncPeer {
  readonly peerId: string;
  /** Undefined until the peer sent node info with a tip. */
  readonly tip: PeerTip | undefined;
}

export interface SyncNetwork {
  /** Connected peers eligible for sync (lisk-sdk: connected and advertising their address). */
  syncPeers(): readonly SyncPeer[];
  /** `getLastBlock`: the peer's tip block, encoded; empty when it sent none. Rejects on failure. */
  getLastBlock(peerId: string): Promise<Uint8Array>;
  /** `getHighestCommonBlock`: the highest of `ids` the peer holds; empty when none. */
  getHighestCommonBlock(peerId: string, ids: readonly Buffer[]): Promise<Buffer>;
  /** `getBlocksFromId`: up to 103 encoded blocks above `id`, in the order the peer sent them. */
  getBlocksFromId(peerId: string, id: Buffer): Promise<readonly Uint8Array[]>;
  /** Lowers the peer's reputation (100 bans its IP for 24 hours). */
  applyPenalty(peerId: string, points: number): void;
}
