/**
 * BlockGossip's reaction to a peer's node info: sync from a peer whose chain has priority, offer
 * our tip to a peer that is behind, including a Lisk node that has applied no block since it
 * started (its node info then carries height 0 and an empty lastBlockID).
 */
import { describe, expect, it, vi } from 'vitest';
import type { BlockHeader } from '../../../src/chain/block-header.js';
import type { BlockReceiver } from '../../../src/engine/block-receiver.js';
import type { Synchronizer } from '../../../src/engine/sync/index.js';
import type { Logger } from '../../../src/logger.js';
import { codec } from '../../../src/codec/index.js';
import { BlockGossip } from '../../../src/p2p/endpoints/block-gossip.js';
import { type NodeInfoOptions, type P2pNetwork, type P2pPeerInfo, p2pSchemas } from '../../../src/p2p/index.js';
import { devChain } from './support/memory-chain.js';

const chain = devChain();
const TIP_BYTES = chain.lastBlock();
const TIP = { height: 420, maxHeightPrevoted: 349, version: 2, id: chain.idAt(420) } as unknown as BlockHeader;

function gossip() {
  const sendToPeer = vi.fn();
  const syncToPeer = vi.fn(async () => undefined);
  const blockGossip = new BlockGossip({
    network: { sendToPeer, send: vi.fn() } as unknown as P2pNetwork,
    receiver: {} as BlockReceiver,
    synchronizer: { isActive: false, syncToPeer } as unknown as Synchronizer,
    tip: () => TIP,
    tipBytes: () => TIP_BYTES,
    logger: { warn: vi.fn() } as unknown as Logger,
    now: () => 1_000,
  });
  return { blockGossip, sendToPeer, syncToPeer };
}

function peer(options: Partial<NodeInfoOptions> | undefined): P2pPeerInfo {
  return {
    peerId: '127.0.0.9:7667',
    ipAddress: '127.0.0.9',
    port: 7667,
    direction: 'inbound',
    chainID: Buffer.from('04000000', 'hex'),
    networkVersion: '1.0',
    nonce: '0123456789abcdef',
    advertiseAddress: true,
    options: options && { height: 0, maxHeightPrevoted: 0, blockVersion: 0, lastBlockID: Buffer.alloc(0), legacy: [], ...options },
  };
}

describe('BlockGossip.onPeerTip', () => {
  it('offers the tip to a Lisk node that has applied no block yet (empty lastBlockID, height 0)', () => {
    const { blockGossip, sendToPeer, syncToPeer } = gossip();
    blockGossip.onPeerTip(peer({}));
    expect(syncToPeer).not.toHaveBeenCalled();
    expect(sendToPeer).toHaveBeenCalledTimes(1);
    const [peerId, event, data] = sendToPeer.mock.calls[0]!;
    expect([peerId, event]).toEqual(['127.0.0.9:7667', 'postBlock']);
    expect(codec.decode<{ block: Buffer }>(p2pSchemas.postBlockSchema, data).block).toEqual(TIP_BYTES);
  });

  it('offers the tip to a peer behind, at most once per 10 s for the same tip', () => {
    const { blockGossip, sendToPeer } = gossip();
    const behind = peer({ height: 100, maxHeightPrevoted: 40, lastBlockID: chain.idAt(100) });
    blockGossip.onPeerTip(behind);
    blockGossip.onPeerTip(behind);
    expect(sendToPeer).toHaveBeenCalledTimes(1);
  });

  it('syncs from a peer whose chain has priority, and leaves alone a peer at our tip or one that sent no node info', () => {
    const { blockGossip, sendToPeer, syncToPeer } = gossip();
    blockGossip.onPeerTip(peer({ height: 425, maxHeightPrevoted: 350, lastBlockID: Buffer.alloc(32, 1) }));
    expect(syncToPeer).toHaveBeenCalledWith('127.0.0.9:7667');
    blockGossip.onPeerTip(peer({ height: 420, maxHeightPrevoted: 349, lastBlockID: chain.idAt(420) }));
    blockGossip.onPeerTip(peer(undefined));
    expect(syncToPeer).toHaveBeenCalledTimes(1);
    expect(sendToPeer).not.toHaveBeenCalled();
  });
});
