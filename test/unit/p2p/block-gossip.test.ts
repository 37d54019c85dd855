/**
 * BlockGossip's reaction to a peer's node info: a peer behind is offered our tip (postBlock), since
 * a lisk-sdk node starts syncing only when a pushed block beats its tip; a peer ahead is synced
 * from. A fresh lisk-sdk node announces height 0 with an empty lastBlockID until it executes its
 * first block, and must be offered the tip like any peer behind.
 */
import { describe, expect, it } from 'vitest';
import type { Block } from '../../../src/chain/block.js';
import type { BlockHeader } from '../../../src/chain/block-header.js';
import type { BlockReceiver } from '../../../src/engine/block-receiver.js';
import type { Synchronizer } from '../../../src/engine/sync/index.js';
import { silentLogger } from '../../../src/logger.js';
import { BlockGossip } from '../../../src/p2p/endpoints/block-gossip.js';
import { emptyNodeInfoOptions, type NodeInfoOptions, type P2pNetwork, type P2pPeerInfo } from '../../../src/p2p/index.js';

const TIP = { height: 432, maxHeightPrevoted: 353, version: 2, id: Buffer.alloc(32, 7) } as unknown as BlockHeader;

function gossip() {
  const sent: { peerId: string; event: string }[] = [];
  const synced: string[] = [];
  const network = { sendToPeer: (peerId: string, event: string) => sent.push({ peerId, event }) } as unknown as P2pNetwork;
  const synchronizer = { isActive: false, syncToPeer: async (peerId: string) => void synced.push(peerId) } as unknown as Synchronizer;
  const subject = new BlockGossip({
    network,
    receiver: {} as BlockReceiver,
    synchronizer,
    tip: () => TIP,
    tipBlock: () => ({ bytes: Buffer.from('tip block') }) as unknown as Block,
    logger: silentLogger,
    now: () => 1_000,
  });
  return { subject, sent, synced };
}

const peer = (options: NodeInfoOptions | undefined): P2pPeerInfo =>
  ({ peerId: '127.0.0.1:7667', ipAddress: '127.0.0.1', port: 7667, direction: 'inbound', options }) as P2pPeerInfo;

describe('BlockGossip.onPeerTip', () => {
  it('offers the tip to a fresh lisk-sdk node (height 0, empty lastBlockID), once per interval', () => {
    const { subject, sent, synced } = gossip();
    subject.onPeerTip(peer(emptyNodeInfoOptions()));
    subject.onPeerTip(peer(emptyNodeInfoOptions()));
    expect(sent).toEqual([{ peerId: '127.0.0.1:7667', event: 'postBlock' }]);
    expect(synced).toEqual([]);
  });

  it('waits for the node info of a peer that sent none', () => {
    const { subject, sent, synced } = gossip();
    subject.onPeerTip(peer(undefined));
    expect(sent).toEqual([]);
    expect(synced).toEqual([]);
  });

  it('syncs from a peer whose chain has priority, and offers nothing to it', () => {
    const { subject, sent, synced } = gossip();
    subject.onPeerTip(peer({ height: 500, maxHeightPrevoted: 420, blockVersion: 2, lastBlockID: Buffer.alloc(32, 9), legacy: [] }));
    expect(synced).toEqual(['127.0.0.1:7667']);
    expect(sent).toEqual([]);
  });
});
