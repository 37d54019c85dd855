/**
 * Synchronizer.syncToPeer before any run starts: it asks a peer ahead for its last block only when
 * no run is going and no other peer's last block is on its way, and it drops a block that arrives
 * after a run has started. The processor and network are stand-ins: no block is ever applied here.
 */
import { describe, expect, it, vi } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import type { ChainProcessor } from '../../../src/engine/chain-processor.js';
import type { SyncNetwork } from '../../../src/engine/sync/sync-network.js';
import { Synchronizer, type SynchronizerOptions } from '../../../src/engine/sync/synchronizer.js';
import { devBlockLines } from '../../support/dev-chain.js';

const blockAt = (height: number): Block => {
  const line = devBlockLines().find((candidate) => candidate.height === height);
  return Block.fromBytes(Buffer.from(line?.blockHex ?? '', 'hex'));
};

function synchronizer() {
  const answers: ((bytes: Uint8Array) => void)[] = [];
  const getLastBlock = vi.fn(() => new Promise<Uint8Array>((resolve) => answers.push(resolve)));
  let release = (): void => undefined;
  // A run holds the tip lock until released; the tip is the dev chain at height 10.
  const withTipLock = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
  const processor = { withTipLock, tipHeader: () => blockAt(10).header } as unknown as ChainProcessor;
  const network = { getLastBlock } as unknown as SyncNetwork;
  const sync = new Synchronizer({ processor, network } as unknown as SynchronizerOptions);
  return { sync, getLastBlock, answers, withTipLock, release: () => release() };
}

describe('Synchronizer.syncToPeer', () => {
  it('asks one peer at a time for its last block, and none while a run is going', async () => {
    const { sync, getLastBlock, answers, withTipLock, release } = synchronizer();
    const first = sync.syncToPeer('a');
    const second = sync.syncToPeer('b');
    await second;
    expect(getLastBlock.mock.calls).toEqual([['a']]);
    // The block has priority over the tip: a run starts, and while it goes nobody is asked.
    answers[0]?.(blockAt(20).bytes);
    await vi.waitFor(() => expect(withTipLock).toHaveBeenCalledTimes(1));
    expect(sync.isActive).toBe(true);
    await sync.syncToPeer('c');
    expect(getLastBlock).toHaveBeenCalledTimes(1);
    release();
    await first;
    expect(sync.isActive).toBe(false);
    void sync.syncToPeer('d');
    expect(getLastBlock.mock.calls).toEqual([['a'], ['d']]);
  });

  it('drops a last block that arrives after a run has started, and asks again after a failed fetch', async () => {
    const { sync, getLastBlock, answers, withTipLock, release } = synchronizer();
    const fetching = sync.syncToPeer('a');
    const run = sync.run(blockAt(30), 'pusher');
    answers[0]?.(blockAt(20).bytes);
    await fetching;
    expect(withTipLock).toHaveBeenCalledTimes(1);
    release();
    await run;

    const failing = sync.syncToPeer('b');
    answers[1]?.(Buffer.from('not a block'));
    await failing;
    expect(withTipLock).toHaveBeenCalledTimes(1);
    void sync.syncToPeer('c');
    expect(getLastBlock.mock.calls).toEqual([['a'], ['b'], ['c']]);
  });
});
