import { codec } from '../../codec/index.js';
import type { SyncNetwork, SyncPeer } from '../../engine/sync/index.js';
import { P2pStateError } from '../errors.js';
import type { P2pNetwork } from '../p2p-network.js';
import {
  getBlocksFromIdRequestSchema,
  getBlocksFromIdResponseSchema,
  getHighestCommonBlockRequestSchema,
  getHighestCommonBlockResponseSchema,
} from '../schemas.js';

/**
 * The synchronizer's view of the P2P network (lisk-sdk
 * `framework/src/engine/consensus/synchronizer/base_synchronizer.ts` makes the same three
 * requests): the connected peers that advertise their address, with the tip their node info
 * announced, and the three sync procedures encoded and decoded here. A timeout, an error answer
 * or an undecodable one rejects; the synchronizer counts it as a failed request.
 */
export class P2pSyncNetwork implements SyncNetwork {
  /** `network` gives the running P2P network, or undefined before it starts and after it stops. */
  constructor(private readonly current: () => P2pNetwork | undefined) {}

  private get network(): P2pNetwork {
    const network = this.current();
    if (!network) throw new P2pStateError('The P2P network is not running.');
    return network;
  }

  syncPeers(): SyncPeer[] {
    const network = this.current();
    if (!network) return [];
    return network.connectedPeers().map((peer) => ({
      peerId: peer.peerId,
      tip: peer.options && {
        height: peer.options.height,
        maxHeightPrevoted: peer.options.maxHeightPrevoted,
        blockVersion: peer.options.blockVersion,
        lastBlockID: peer.options.lastBlockID,
      },
    }));
  }

  async getLastBlock(peerId: string): Promise<Uint8Array> {
    const { data } = await this.network.requestFromPeer(peerId, 'getLastBlock');
    return data ?? Buffer.alloc(0);
  }

  async getHighestCommonBlock(peerId: string, ids: readonly Buffer[]): Promise<Buffer> {
    const request = codec.encode(getHighestCommonBlockRequestSchema, { ids });
    const { data } = await this.network.requestFromPeer(peerId, 'getHighestCommonBlock', request);
    return codec.decode<{ id: Buffer }>(getHighestCommonBlockResponseSchema, data ?? Buffer.alloc(0)).id;
  }

  async getBlocksFromId(peerId: string, id: Buffer): Promise<readonly Uint8Array[]> {
    const request = codec.encode(getBlocksFromIdRequestSchema, { blockId: id });
    const { data } = await this.network.requestFromPeer(peerId, 'getBlocksFromId', request);
    if (!data || data.length === 0) return [];
    return codec.decode<{ blocks: Buffer[] }>(getBlocksFromIdResponseSchema, data).blocks;
  }

  applyPenalty(peerId: string, points: number): void {
    this.current()?.applyPenalty(peerId, points);
  }
}
