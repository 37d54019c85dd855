/**
 * A block's LMDB transaction is committed by lmdb-js's write thread (StateDb.transactionAsync),
 * so processBlock awaits it and the tip moves only once it is visible. revertTip, which is not
 * queued behind the tip lock, must not run in that window: it is refused, the block is stored
 * as it would have been, and a revert after it works as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { ConsensusError } from '../../src/errors.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';

describe('revertTip while a block commits', () => {
  let dataPath: string;
  let chain: OpenChain;
  const lines = devBlockLines();

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-revert-during-commit-'));
    chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('refuses the revert, stores the block, and reverts it afterwards', async () => {
    const { processor, stateDb } = chain;
    const block = (height: number): Block => Block.fromBytes(Buffer.from(lines[height]?.blockHex as string, 'hex'));
    await processor.processBlock(block(1));
    await processor.processBlock(block(2));

    // Hold block 3's transaction at the door of the write thread until the revert was tried.
    let release = (): void => {};
    const door = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached = (): void => {};
    const atDoor = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const transactionAsync = stateDb.transactionAsync.bind(stateDb);
    stateDb.transactionAsync = async (write) => {
      reached();
      await door;
      return transactionAsync(write);
    };
    const third = processor.processBlock(block(3));
    await atDoor;
    expect(() => processor.revertTip()).toThrow(ConsensusError);
    expect(() => processor.revertTip()).toThrow(/being committed/);
    release();
    const processed = await third;
    stateDb.transactionAsync = transactionAsync;

    expect(processed.block.header.height).toBe(3);
    expect(processor.tipHeader().id.equals(block(3).header.id)).toBe(true);
    expect(stateDb.root().equals(block(3).header.stateRoot)).toBe(true);
    expect(processor.revertTip().header.height).toBe(3);
    expect(processor.tipHeader().height).toBe(2);
    expect(stateDb.root().equals(block(2).header.stateRoot)).toBe(true);
  });
});
