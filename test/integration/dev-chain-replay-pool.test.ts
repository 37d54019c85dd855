/**
 * The dev chain replayed as the node syncs it: blocks in announced batches (verifyAhead), every
 * transaction signature batched through real worker threads ahead of its block (even
 * one-signature blocks: minPoolSet 1), every aggregate commit's pairing
 * in a worker, and every block's state-tree update computed in a worker on the main thread's
 * shared tree (minChanges 1) while the main thread computes the event root. processBlock refuses any block whose roots differ, so reaching the reference tip
 * with the reference events proves the pool path gives lisk-sdk's results, as the main-thread
 * replay (dev-chain-replay.test.ts) does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { eventToJSON } from '../../src/chain/event.js';
import { nativeAvailable } from '../../src/native/index.js';
import { offThreadWork, openChain, type OpenChain } from '../../src/node.js';
import type { StateTreeUpdater } from '../../src/state/state-db.js';
import { WorkerPool } from '../../src/workers/index.js';
import { devBlockLines, devChainConfig, devEventsByHeight, devFinalState, devGenesisBlock } from '../support/dev-chain.js';

describe('replay of fixtures/chains/dev through the worker pool', () => {
  let dataPath: string;
  let chain: OpenChain;
  const workers = new WorkerPool({ threads: 2 });
  let treeUpdatesInWorkers = 0;

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-dev-replay-pool-'));
    // The node's verifiers on the pool, sending even the smallest sets and updates to it.
    const { signatureVerifier, stateTreeUpdater: pooled, popVerifiers } = offThreadWork(workers, { minPoolSet: 1, minChanges: 1 });
    const stateTreeUpdater: StateTreeUpdater = {
      minChanges: pooled.minChanges,
      update: async (treeId, root, changes) => {
        const update = await pooled.update(treeId, root, changes);
        if (update !== undefined) treeUpdatesInWorkers += 1;
        return update;
      },
    };
    chain = await openChain({
      dataPath,
      config: devChainConfig(),
      genesisBlock: devGenesisBlock(),
      signatureVerifier,
      stateTreeUpdater,
      popVerifiers,
    });
  });

  afterAll(async () => {
    await chain?.close();
    await workers.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('reaches the reference tip with the reference events at every height', async () => {
    const referenceEvents = devEventsByHeight();
    let certified = 0;
    const blocks = devBlockLines()
      .slice(1)
      .map((line) => Block.fromBytes(Buffer.from(line.blockHex, 'hex')));
    // In batches announced ahead, as sync applies what getBlocksFromId returns (103 blocks): each
    // block's signatures are checked while the blocks before it execute.
    for (let start = 0; start < blocks.length; start += 103) {
      const batch = blocks.slice(start, start + 103);
      chain.processor.verifyAhead(batch);
      for (const block of batch) {
        if (block.header.aggregateCommit.certificateSignature.length > 0) certified += 1;
        await chain.processor.processBlock(block);
        const { height } = block.header;
        expect(chain.chainStore.getEvents(height)?.map(eventToJSON)).toEqual(referenceEvents.get(height));
      }
    }
    const tip = chain.processor.tipHeader();
    const final = devFinalState();
    expect({ height: tip.height, id: tip.id.toString('hex'), stateRoot: tip.stateRoot.toString('hex') }).toEqual({
      height: final.tip.height,
      id: final.tip.id,
      stateRoot: final.tip.stateRoot,
    });
    // The chain carries certificates, so the pool's BLS path was taken, not only the empty-commit rule.
    expect(certified).toBeGreaterThan(0);
    // Genesis and every block with state changes, computed in a worker, where the native tree
    // can be shared; a JavaScript tree cannot, and StateDb computes every update itself.
    if (nativeAvailable) expect(treeUpdatesInWorkers).toBeGreaterThan(400);
    else expect(treeUpdatesInWorkers).toBe(0);
    // The proofs of possession of the genesis validators and of every registration were checked
    // in the pool before their block, none on this thread during execution.
    expect(workers.taskCounts.get('bls.popVerifyBatch')).toBeGreaterThan(0);
    expect([...workers.fallbackCounts.values()].filter((entry) => entry.task === 'bls.popVerifyBatch')).toEqual([]);
  });
});
