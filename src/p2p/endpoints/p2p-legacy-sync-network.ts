import { codec } from '../../codec/index.js';
import type { LegacySyncNetwork } from '../../legacy-chain/index.js';
import { P2pStateError } from '../errors.js';
import type { P2pNetwork } from '../p2p-network.js';
import { getLegacyBlocksFromIdRequestSchema } from '../schemas.js';

/**
 * The legacy sync's view of the P2P network (lisk-sdk `framework/src/engine/legacy/
 * legacy_chain_handler.ts` uses the same calls): the connected peers announcing a bracket in their
 * node info, getLegacyBlocksFromId, penalties, and the node info's `legacy` list.
 */
export class P2pLegacySyncNetwork implements LegacySyncNetwork {
  /** `network` gives the running P2P network, or undefined before it starts and after it stops. */
  constructor(private readonly current: () => P2pNetwork | undefined) {}

  private get network(): P2pNetwork {
    const network = this.current();
    if (!network) throw new P2pStateError('The P2P network is not running.');
    return network;
  }

  peersHolding(snapshotBlockId: Buffer): string[] {
    const network = this.current();
    if (!network) return [];
    return network
      .connectedPeers()
      .filter((peer) => peer.options?.legacy.some((id) => id.equals(snapshotBlockId)) === true)
      .map((peer) => peer.peerId);
  }

  async requestLegacyBlocks(peerId: string, blockId: Buffer, snapshotBlockId: Buffer): Promise<Buffer> {
    const request = codec.encode(getLegacyBlocksFromIdRequestSchema, { blockID: blockId, snapshotBlockID: snapshotBlockId });
    const { data } = await this.network.requestFromPeer(peerId, 'getLegacyBlocksFromId', request);
    return data ?? Buffer.alloc(0);
  }

  penalize(peerId: string, points: number): void {
    try {
      this.network.applyPenalty(peerId, points);
    } catch {
      // The peer is gone already: nothing to charge.
    }
  }

  announce(snapshotBlockIds: readonly Buffer[]): void {
    this.current()?.applyNodeInfo({ legacy: [...snapshotBlockIds] });
  }
}
