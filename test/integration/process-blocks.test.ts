/**
 * ChainProcessor.processBlocks executes each block while the one before it commits on LMDB's
 * write thread. What it stores, what it reports and where it stops must be what processBlock
 * one block at a time gives: the same tip and state root, listeners in order and only for stored
 * blocks, a failing block's error after every block before it is stored. Block N+1's roots are
 * checked on the state tree while N's transaction is still being written (the tree moved when N
 * was queued): a commit of N that really fails (the store's file may not grow: RLIMIT_FSIZE on
 * this test process, as a full disk does to the node) must leave the tree at the stored tip.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { chainEnvPath } from '../../src/chain/lmdb-environment.js';
import { InvalidBlockError, StoreWriteError } from '../../src/errors.js';
import { smtKeyFromStateKey, STATE_KEY_LENGTH, verify } from '../../src/merkle/index.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';
import { limitOwnFileSize } from '../support/file-size-limit.js';

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
    limitOwnFileSize('unlimited');
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

  it('takes the tree back to the stored tip when a commit really fails while the next block is checked on it, and goes on from there', async () => {
    const { processor, stateDb, chainStore } = chain;
    const last = lines.length - 1;
    expect(await processor.processBlocks(heights(1, 10).map(block))).toBe(true);
    await stateDb.flushed();
    const reported: StoreWriteError[] = [];
    processor.onStoreWriteFailed((error) => reported.push(error));
    const stored: number[] = [];

    limitOwnFileSize(statSync(chainEnvPath(dataPath)).size + 64 * 1024);
    const attempt = processor.processBlocks(heights(11, last).map(block), (processed) => stored.push(processed.block.header.height));
    await expect(attempt).rejects.toThrow(StoreWriteError);
    expect(reported).toHaveLength(1);
    const tip = chainStore.tipHeight();
    expect(tip).toBeLessThan(last);
    expect(stored.at(-1) ?? 10).toBe(tip);

    // The tree is where the store is: at the tip's root, which an empty update starts from, and
    // proofs verify against it.
    const root = stateDb.root();
    expect(root.equals(block(tip).header.stateRoot)).toBe(true);
    expect(stateDb.prepareUpdate([]).root.equals(root)).toBe(true);
    const queryKeys = [...stateDb.moduleReader.iterate({ gte: Buffer.alloc(6), lte: Buffer.alloc(64, 0xff), limit: 20 })].map(({ key }) =>
      smtKeyFromStateKey(key),
    );
    expect(queryKeys.length).toBeGreaterThan(0);
    expect(verify(queryKeys, stateDb.prove(queryKeys), root, STATE_KEY_LENGTH)).toBe(true);

    // With room again, the next blocks apply on that tree: every stateRoot checked on the way.
    limitOwnFileSize('unlimited');
    expect(await processor.processBlocks(heights(tip + 1, last).map(block))).toBe(true);
    expect(stateDb.root().equals(block(last).header.stateRoot)).toBe(true);
  });

  it('reverts a block it stored, as processBlock would', async () => {
    await chain.processor.processBlocks([1, 2, 3].map(block));
    expect(chain.processor.revertTip().header.height).toBe(3);
    expect(chain.stateDb.root().equals(block(2).header.stateRoot)).toBe(true);
  });
});
