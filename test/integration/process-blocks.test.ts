/**
 * ChainProcessor.processBlocks executes each block while the one before it commits on LMDB's
 * write thread. What it stores, what it reports and where it stops must be what processBlock
 * one block at a time gives: the same tip and state root, listeners in order and only for stored
 * blocks, a failing block's error after every block before it is stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { InvalidBlockError, StoreWriteError } from '../../src/errors.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';

describe('ChainProcessor.processBlocks', () => {
  let dataPath: string;
  let chain: OpenChain;
  const lines = devBlockLines();
  const block = (height: number): Block => Block.fromBytes(Buffer.from(lines[height]?.blockHex as string, 'hex'));
  const heights = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  beforeEach(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-process-blocks-'));
    chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
  });

  afterEach(async () => {
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('stores what processBlock stores, and tells of each block once stored, in order', async () => {
    const last = Math.min(lines.length - 1, 40);
    const stored: number[] = [];
    const done = await chain.processor.processBlocks(heights(1, last).map(block), (processed) => {
      // Told only once the block is the stored tip.
      expect(chain.chainStore.tipHeight()).toBe(processed.block.header.height);
      stored.push(processed.block.header.height);
    });
    expect(done).toBe(true);
    expect(stored).toEqual(heights(1, last));
    const tip = chain.processor.tipHeader();
    expect(tip.id.equals(block(last).header.id)).toBe(true);
    expect(chain.stateDb.root().equals(block(last).header.stateRoot)).toBe(true);
  });

  it('stops at a failing block with every block before it stored, and goes on from there', async () => {
    const stored: number[] = [];
    const attempt = chain.processor.processBlocks([1, 2, 3, 5, 6].map(block), (processed) => stored.push(processed.block.header.height));
    await expect(attempt).rejects.toThrow(InvalidBlockError);
    await expect(attempt).rejects.toMatchObject({ reason: 'height' });
    expect(stored).toEqual([1, 2, 3]);
    expect(chain.processor.tipHeader().id.equals(block(3).header.id)).toBe(true);
    expect(chain.stateDb.root().equals(block(3).header.stateRoot)).toBe(true);

    expect(await chain.processor.processBlocks([4, 5, 6].map(block))).toBe(true);
    expect(chain.stateDb.root().equals(block(6).header.stateRoot)).toBe(true);
  });

  it('stops before the next block when asked, with the block before it stored', async () => {
    const stored: number[] = [];
    const done = await chain.processor.processBlocks(
      [1, 2, 3, 4].map(block),
      (processed) => stored.push(processed.block.header.height),
      () => stored.length >= 2,
    );
    expect(done).toBe(false);
    // Block 3 was executing when block 2 was stored; the stop is seen before block 4.
    expect(stored).toEqual([1, 2, 3]);
    expect(chain.chainStore.tipHeight()).toBe(3);
  });

  it('reports a failed commit before anything about the block executed meanwhile, which is never written', async () => {
    const { stateDb, processor } = chain;
    const queueTransaction = stateDb.queueTransaction.bind(stateDb);
    let queued = 0;
    // The third block's transaction fails as a full disk makes it fail: nothing of it is written.
    stateDb.queueTransaction = <T>(write: Parameters<typeof queueTransaction<T>>[0]) => {
      queued += 1;
      if (queued !== 3) return queueTransaction(write);
      return { result: undefined as T, visible: () => Promise.reject(new StoreWriteError(new Error('MDB_MAP_FULL'))) };
    };
    const reported: StoreWriteError[] = [];
    processor.onStoreWriteFailed((error) => reported.push(error));
    const stored: number[] = [];
    try {
      // Block 5 does not follow block 3: its own error, found meanwhile, must not be the one reported.
      const attempt = processor.processBlocks([1, 2, 3, 5].map(block), (processed) => stored.push(processed.block.header.height));
      await expect(attempt).rejects.toThrow(StoreWriteError);
    } finally {
      stateDb.queueTransaction = queueTransaction;
    }
    expect(stored).toEqual([1, 2]);
    expect(reported).toHaveLength(1);
    expect(chain.chainStore.tipHeight()).toBe(2);
    expect(stateDb.root().equals(block(2).header.stateRoot)).toBe(true);
  });

  it('reverts a block it stored, as processBlock would', async () => {
    await chain.processor.processBlocks([1, 2, 3].map(block));
    expect(chain.processor.revertTip().header.height).toBe(3);
    expect(chain.stateDb.root().equals(block(2).header.stateRoot)).toBe(true);
  });
});
