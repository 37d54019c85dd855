/**
 * ChainProcessor.processBlocks checks block N+1's roots on the state tree while N's transaction
 * is still on LMDB's write thread: the tree moved to N's root when N was queued. When N's commit
 * really fails (the store's file may not grow: RLIMIT_FSIZE on this test process, as a full disk
 * does to the node), the failure is reported, the tree is back at the stored tip's root in the
 * same process, without a reopen, and the chain goes on from there once there is room.
 *
 * Each test file runs in a process of its own (vitest.config.ts: pool forks), so the file size
 * limit set here reaches no other test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { chainEnvPath } from '../../src/chain/lmdb-environment.js';
import { StoreWriteError } from '../../src/errors.js';
import { smtKeyFromStateKey, STATE_KEY_LENGTH, verify } from '../../src/merkle/index.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';

/** Sets this process's soft file size limit (bytes, or 'unlimited'): writes past it fail with EFBIG. */
function limitFileSize(limit: number | 'unlimited'): void {
  execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${limit}:`]);
}

describe('a block commit that fails while the next block is checked on the tree', () => {
  let dataPath: string;
  let chain: OpenChain;
  const lines = devBlockLines();
  const block = (height: number): Block => Block.fromBytes(Buffer.from(lines[height]?.blockHex as string, 'hex'));
  const heights = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  beforeEach(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-pipelined-commit-fails-'));
    chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
  });

  afterEach(async () => {
    limitFileSize('unlimited');
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('reports the failure, leaves store and tree at the stored tip, and goes on once there is room', async () => {
    const { processor, stateDb, chainStore } = chain;
    const last = lines.length - 1;
    expect(await processor.processBlocks(heights(1, 10).map(block))).toBe(true);
    await stateDb.flushed();
    const reported: StoreWriteError[] = [];
    processor.onStoreWriteFailed((error) => reported.push(error));
    const stored: number[] = [];

    limitFileSize(statSync(chainEnvPath(dataPath)).size + 64 * 1024);
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
    limitFileSize('unlimited');
    expect(await processor.processBlocks(heights(tip + 1, last).map(block))).toBe(true);
    expect(stateDb.root().equals(block(last).header.stateRoot)).toBe(true);
  });
});
