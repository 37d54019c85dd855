import { describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/chain/block-header.js';
import { SyncStopError } from '../../../src/engine/sync/sync-errors.js';
import { chooseBestPeer, commonBlockHeights } from '../../../src/engine/sync/sync-peers.js';
import type { SyncPeer } from '../../../src/engine/sync/sync-network.js';

const id = (byte: number): Buffer => Buffer.alloc(32, byte);
const peer = (peerId: string, height: number, maxHeightPrevoted: number, lastBlockID: Buffer): SyncPeer => ({
  peerId,
  tip: { height, maxHeightPrevoted, blockVersion: 2, lastBlockID },
});
const tip = { height: 100, maxHeightPrevoted: 90 } as BlockHeader;

describe('commonBlockHeights (lisk-sdk computeBlockHeightsList)', () => {
  it('lists the first height of each earlier round, newest first, and ends at the finalized height', () => {
    expect(commonBlockHeights(5, 103, 10, 5)).toEqual([412, 309, 206, 103, 5]);
    expect(commonBlockHeights(0, 103, 10, 5)).toEqual([412, 309, 206, 103, 0]);
  });

  it('stops at the limit while above the finalized height, and starts at 0 for round 0', () => {
    expect(commonBlockHeights(0, 10, 3, 100)).toEqual([990, 980, 970]);
    expect(commonBlockHeights(0, 10, 3, 0)).toEqual([0]);
  });
});

describe('chooseBestPeer (LIP 0014 block synchronization, step 1)', () => {
  it('prefers the highest prevoted height, then the height, then the largest group by tip ID', () => {
    const peers = [
      peer('a', 200, 95, id(1)),
      peer('b', 150, 99, id(2)),
      peer('c', 150, 99, id(3)),
      peer('d', 150, 99, id(3)),
      peer('e', 140, 99, id(4)),
    ];
    expect(chooseBestPeer(peers, tip, () => 0).peerId).toBe('c');
    expect(chooseBestPeer(peers, tip, () => 0.99).peerId).toBe('d');
  });

  it('breaks a tie between groups of one size by the smaller block ID', () => {
    const peers = [peer('x', 150, 99, id(9)), peer('y', 150, 99, id(7))];
    expect(chooseBestPeer(peers, tip, () => 0).peerId).toBe('y');
  });

  it('skips peers without node info and aborts when no tip has priority', () => {
    const quiet: SyncPeer = { peerId: 'q', tip: undefined };
    expect(chooseBestPeer([quiet, peer('z', 101, 90, id(1))], tip, () => 0).peerId).toBe('z');
    expect(() => chooseBestPeer([peer('z', 100, 90, id(1))], tip, () => 0)).toThrow(SyncStopError);
    expect(() => chooseBestPeer([quiet], tip, () => 0)).toThrow(SyncStopError);
  });
});
