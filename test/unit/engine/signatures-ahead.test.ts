/**
 * SignaturePlans with the node's block verifier on a real 2-thread pool, its checks ahead capped at
 * one thread: the block executing next is checked on every thread, the blocks after it through
 * verifyEd25519Ahead (one thread of the two), and both give the main thread's answers; uncapped
 * (the node's default), the blocks ahead are split as the next one is. The blocks are the dev chain's, planned against
 * its genesis state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { MainThreadSignatureVerifier } from '../../../src/crypto/index.js';
import { SignaturePlans } from '../../../src/engine/signatures-ahead.js';
import { offThreadWork, openChain, type OpenChain } from '../../../src/node.js';
import { WorkerPool } from '../../../src/workers/index.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../../support/dev-chain.js';

const TASK = 'ed25519.verifyBatch';

describe('SignaturePlans on the pool', () => {
  let dataPath: string;
  let chain: OpenChain;
  let pool: WorkerPool;
  /** The dev chain's blocks with several transactions, largest first. */
  let blocks: Block[];

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-signature-plans-'));
    pool = new WorkerPool({ threads: 2 });
    chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    blocks = devBlockLines()
      .slice(1)
      .map((line) => Block.fromBytes(Buffer.from(line.blockHex, 'hex')))
      .filter((block) => block.transactions.length >= 4)
      .sort((a, b) => b.transactions.length - a.transactions.length);
  });
  afterAll(async () => {
    await chain?.close();
    await pool?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('checks the next block on both threads and the blocks after it on one, with the same answers', async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const { signatureVerifier } = offThreadWork(pool, { minPoolSet: 1, aheadThreads: 1 });
    const plans = new SignaturePlans(chain.stateMachine, signatureVerifier, 2);
    const state = chain.stateDb.moduleReader;
    const sent = (): number => pool.taskCounts.get(TASK) ?? 0;

    const before = sent();
    const next = plans.plan(blocks[0] as Block, state, true);
    expect(sent() - before).toBe(2);
    const ahead = [blocks[1], blocks[2]].map((block) => plans.plan(block as Block, state));
    // One batch each, and the second waits for the first before it is sent.
    expect(sent() - before).toBe(3);
    const mainThread = new MainThreadSignatureVerifier();
    for (const plan of [next, ...ahead]) {
      expect(plan).toBeDefined();
      expect(await plan?.answers).toEqual(await mainThread.verifyEd25519(plan?.checks ?? []));
    }
    expect(sent() - before).toBe(4);
    // Planned once: asking again gives the same plan and sends nothing.
    expect(plans.plan(blocks[1] as Block, state)).toBe(ahead[0]);
    expect(sent() - before).toBe(4);
  });

  it('with the default verifier (no cap) splits the blocks ahead for every thread', async () => {
    const { signatureVerifier } = offThreadWork(pool, { minPoolSet: 1 });
    const plans = new SignaturePlans(chain.stateMachine, signatureVerifier, 2);
    const before = pool.taskCounts.get(TASK) ?? 0;
    const plan = plans.plan(blocks[1] as Block, chain.stateDb.moduleReader);
    expect((pool.taskCounts.get(TASK) ?? 0) - before).toBe(2);
    expect(await plan?.answers).toEqual(await new MainThreadSignatureVerifier().verifyEd25519(plan?.checks ?? []));
  });

  it('plans with a verifier that has no verifyEd25519Ahead through verifyEd25519', async () => {
    const plans = new SignaturePlans(chain.stateMachine, new MainThreadSignatureVerifier(), 2);
    const plan = plans.plan(blocks[0] as Block, chain.stateDb.moduleReader);
    expect((await plan?.answers)?.length).toBe(blocks[0]?.transactions.length);
    expect(plans.take(blocks[0] as Block)).toBe(plan);
    expect(plans.take(blocks[0] as Block)).toBeUndefined();
  });
});
