/**
 * Peers for synchronizer tests, in process: each serves a real chain store the way a Lisk node
 * answers the three sync procedures (lisk-sdk 6.1 `framework/src/engine/consensus/network_endpoint.ts`):
 * the tip block, the highest known of a list of IDs, and up to 103 blocks above an ID in
 * descending height order. A peer may tamper with what it serves, to play a hostile one.
 */
import type { Block } from '../../src/chain/block.js';
import type { ChainStore } from '../../src/chain/chain-store.js';
import type { PeerTip, SyncNetwork, SyncPeer } from '../../src/engine/sync/index.js';

const BLOCKS_PER_ANSWER = 103;

export interface ChainPeer {
  readonly chainStore: ChainStore;
  /** Rewrites each block it serves (a hostile peer); identity by default. */
  readonly serve?: (block: Block) => Uint8Array;
  /** Sends nothing for getBlocksFromId (a peer that stalls). */
  readonly stalls?: boolean;
}

export class ChainPeersNetwork implements SyncNetwork {
  readonly penalties: { peerId: string; points: number }[] = [];
  readonly requests: string[] = [];

  constructor(private readonly peers: ReadonlyMap<string, ChainPeer>) {}

  syncPeers(): SyncPeer[] {
    return [...this.peers].map(([peerId, peer]) => ({ peerId, tip: tipOf(peer.chainStore) }));
  }

  async getLastBlock(peerId: string): Promise<Uint8Array> {
    this.requests.push(`${peerId} getLastBlock`);
    const peer = this.peer(peerId);
    return this.encode(peer, peer.chainStore.getBlockByHeight(peer.chainStore.tipHeight()));
  }

  async getHighestCommonBlock(peerId: string, ids: readonly Buffer[]): Promise<Buffer> {
    this.requests.push(`${peerId} getHighestCommonBlock`);
    const { chainStore } = this.peer(peerId);
    let best: { id: Buffer; height: number } | undefined;
    for (const id of ids) {
      const height = chainStore.getHeightById(id);
      if (height !== undefined && (best === undefined || height > best.height)) best = { id, height };
    }
    return best?.id ?? Buffer.alloc(0);
  }

  async getBlocksFromId(peerId: string, id: Buffer): Promise<Uint8Array[]> {
    this.requests.push(`${peerId} getBlocksFromId`);
    const peer = this.peer(peerId);
    if (peer.stalls) throw new Error('Request timed out');
    const { chainStore } = peer;
    const from = chainStore.getHeightById(id);
    if (from === undefined) throw new Error(`Specified key ${id.toString('hex')} does not exist`);
    const last = Math.min(chainStore.tipHeight(), from + BLOCKS_PER_ANSWER);
    const blocks: Uint8Array[] = [];
    for (let height = last; height > from; height -= 1) blocks.push(this.encode(peer, chainStore.getBlockByHeight(height)));
    return blocks;
  }

  applyPenalty(peerId: string, points: number): void {
    this.penalties.push({ peerId, points });
  }

  private peer(peerId: string): ChainPeer {
    const peer = this.peers.get(peerId);
    if (!peer) throw new Error(`Unknown peer ${peerId}`);
    return peer;
  }

  private encode(peer: ChainPeer, block: Block): Uint8Array {
    return peer.serve ? peer.serve(block) : block.bytes;
  }
}

function tipOf(chainStore: ChainStore): PeerTip {
  const header = chainStore.getHeaderByHeight(chainStore.tipHeight());
  if (!header) throw new Error('The peer has no tip');
  return { height: header.height, maxHeightPrevoted: header.maxHeightPrevoted, blockVersion: header.version, lastBlockID: header.id };
}
