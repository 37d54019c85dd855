/**
 * getBlocksFromId answers built in the worker pool: on the replayed dev chain, the P2P procedures
 * with a real WorkerPool behind them (the task opening the node's LMDB environment read-only) give
 * the network thread's answers byte for byte for ranges from genesis to the tip, with the same
 * error and no penalty for an unknown ID. Requests for one range in flight together share one
 * task, answers are kept, and a closed pool leaves the answering to the network thread.
 * Then the chain moves under the workers: once the tip they were asked about is reverted
 * (BlockReceiver, LIP 0014 case 4) the task answers "stale" and the peer gets the answer on the
 * chain as it is.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../src/chain/block-header.js';
import { codec } from '../../src/codec/index.js';
import type { OpenChain } from '../../src/node.js';
import { pooledBlocksFromIdReader } from '../../src/node/pooled-blocks-from-id.js';
import { chainProcedures, emptyTransactionSource, type ProcedureHandler } from '../../src/p2p/index.js';
import { chainStoreSource } from '../../src/p2p/endpoints/chain-store-source.js';
import { EncodedPayload } from '../../src/p2p/envelopes.js';
import { p2pSchemas } from '../../src/p2p/index.js';
import { chainReadBlocksFromId, type ChainReadBlocksFromIdOutput } from '../../src/workers/tasks/chain-read-blocks-from-id.js';
import { WorkerPool, type RunOptions } from '../../src/workers/worker-pool.js';
import { blockReceiverFor, forkedDevChain, openDevChain, type ForkedDevChain } from './chain-read-support.js';

interface Answer {
  readonly bytes?: Buffer;
  readonly error?: string;
  readonly penalties: readonly number[];
}

/** Calls getBlocksFromId from `blockId` and returns the answer's bytes or error, with the penalties. */
async function ask(handler: ProcedureHandler | undefined, blockId: Buffer): Promise<Answer> {
  const penalties: number[] = [];
  const data = codec.encode(p2pSchemas.getBlocksFromIdRequestSchema, { blockId });
  try {
    const answer = await handler?.(data, { peerId: '127.0.0.9:7667', penalize: (points) => penalties.push(points) });
    const bytes = answer instanceof EncodedPayload ? Buffer.from(answer.base64, 'base64') : Buffer.from(answer ?? []);
    return { bytes, penalties };
  } catch (error) {
    return { error: (error as Error).message, penalties };
  }
}

describe('getBlocksFromId answers built in the worker pool', () => {
  let forked: ForkedDevChain;
  let chain: OpenChain;
  let pool: WorkerPool;
  const ran: string[] = [];
  const countedPool = {
    run: (name: string, input: unknown, options: RunOptions) => {
      ran.push(name);
      return pool.run(name, input, options);
    },
  };
  const tip = (): BlockHeader => chain.processor.tipHeader();
  /** Fresh procedures (empty answer cache): on the network thread only, or with the pool behind them. */
  const onMainThread = () => chainProcedures(chainStoreSource(chain.chainStore)).getBlocksFromId;
  const withPool = (reader = pooledBlocksFromIdReader({ pool: countedPool, dataPath: forked.dataPath, tip })) =>
    chainProcedures(chainStoreSource(chain.chainStore), emptyTransactionSource, { blocksFromIdReader: reader }).getBlocksFromId;
  const idAt = (height: number): Buffer => (chain.chainStore.getHeaderByHeight(height) as BlockHeader).id;

  beforeAll(async () => {
    forked = await forkedDevChain();
    chain = await openDevChain(forked);
    pool = new WorkerPool({ threads: 2 });
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    await chain?.close();
    if (forked) rmSync(forked.workDir, { recursive: true, force: true });
  });

  it('answers every range as the network thread does, byte for byte', async () => {
    const tipHeight = chain.chainStore.tipHeight();
    const finalized = chain.chainStore.finalizedHeight();
    const pooled = withPool();
    const heights = [0, 1, 105, 106, 250, finalized - 103, finalized - 102, tipHeight - 103, tipHeight - 40, tipHeight - 1, tipHeight];
    for (const height of heights) {
      ran.length = 0;
      const expected = await ask(onMainThread(), idAt(height));
      const answer = await ask(pooled, idAt(height));
      expect(expected.error).toBeUndefined();
      expect(answer).toEqual(expected);
      const blocks = codec.decode<{ blocks: Buffer[] }>(p2pSchemas.getBlocksFromIdResponseSchema, answer.bytes as Buffer).blocks;
      expect(blocks).toHaveLength(Math.min(103, tipHeight - height));
      // From the tip itself the answer is empty: built on the network thread, no task.
      expect(ran).toEqual(height === tipHeight ? [] : [chainReadBlocksFromId.name]);
    }
  });

  it('keeps answers built in a worker, and shares one task among requests for the same range', async () => {
    const finalized = chain.chainStore.finalizedHeight();
    const pooled = withPool();
    ran.length = 0;
    const first = await ask(pooled, idAt(finalized - 103));
    expect(await ask(pooled, idAt(finalized - 103))).toEqual(first);
    expect(ran).toEqual([chainReadBlocksFromId.name]);

    ran.length = 0;
    const open = idAt(chain.chainStore.tipHeight() - 50);
    const together = await Promise.all([ask(pooled, open), ask(pooled, open), ask(pooled, open)]);
    expect(ran).toEqual([chainReadBlocksFromId.name]);
    const expected = await ask(onMainThread(), open);
    for (const answer of together) expect(answer).toEqual(expected);
    // Not finalized, but kept while the tip is the same.
    expect(await ask(pooled, open)).toEqual(expected);
    expect(ran).toHaveLength(1);
  });

  it('answers an unknown ID with the same error and no penalty, on the network thread', async () => {
    ran.length = 0;
    const unknown = Buffer.alloc(32, 7);
    const expected = await ask(onMainThread(), unknown);
    expect(expected.error).toBe(`Block ${unknown.toString('hex')} does not exist`);
    expect(await ask(withPool(), unknown)).toEqual(expected);
    expect(ran).toEqual([]);
    // The task itself, asked about an ID it does not know, leaves the answer to the network thread.
    const header = tip();
    const output = await pool.run<ChainReadBlocksFromIdOutput>(
      chainReadBlocksFromId.name,
      {
        dataPath: forked.dataPath,
        tip: { height: header.height, id: header.id },
        fromId: unknown,
      },
      { priority: 'block-serving' },
    );
    expect(output).toEqual({ status: 'unknown' });
  });

  it('answers on the network thread when the pool cannot run the task', async () => {
    const closed = new WorkerPool({ threads: 1 });
    await closed.close();
    const reader = pooledBlocksFromIdReader({ pool: closed, dataPath: forked.dataPath, tip });
    const from = idAt(200);
    expect(await reader(from, 200)).toBeUndefined();
    expect(await ask(withPool(reader), from)).toEqual(await ask(onMainThread(), from));
    expect(closed.fallbackCounts.get('chain-read-blocks-from-id/pool_failed')?.count).toBe(2);
  });

  it('never answers from a reverted tip: the task says stale, the network thread answers, nothing kept is served', async () => {
    const { blockA, blockB } = forked;
    const receiver = blockReceiverFor(chain);
    const height = blockA.header.height;
    const from = idAt(height - 20);
    expect((await receiver.receive(blockA, chain.bft.slotTime(forked.slotB))).kind).toBe('applied');
    const pooled = withPool();
    const withA = await ask(pooled, from);
    expect(withA).toEqual(await ask(onMainThread(), from));
    const newestOf = (answer: Answer) =>
      codec.decode<{ blocks: Buffer[] }>(p2pSchemas.getBlocksFromIdResponseSchema, answer.bytes as Buffer).blocks[0];
    expect(newestOf(withA)).toEqual(blockA.bytes);
    const tipA = tip();
    // A block stored after the request was sent is not in the chain the request saw.
    const beforeA = { height: height - 1, id: idAt(height - 1) };
    expect(
      await pool.run(
        chainReadBlocksFromId.name,
        { dataPath: forked.dataPath, tip: beforeA, fromId: blockA.header.id },
        { priority: 'block-serving' },
      ),
    ).toEqual({
      status: 'unknown',
    });

    expect((await receiver.receive(blockB, forked.clock)).kind).toBe('replaced');
    expect(
      await pool.run(
        chainReadBlocksFromId.name,
        { dataPath: forked.dataPath, tip: { height, id: tipA.id }, fromId: from },
        { priority: 'block-serving' },
      ),
    ).toEqual({
      status: 'stale',
    });
    // A reader that still sees A as the tip (the request arrived before the switch): the task is
    // stale, and the peer gets the chain with B, as the network thread answers.
    ran.length = 0;
    const late = await ask(withPool(pooledBlocksFromIdReader({ pool: countedPool, dataPath: forked.dataPath, tip: () => tipA })), from);
    expect(ran).toEqual([chainReadBlocksFromId.name]);
    expect(late).toEqual(await ask(onMainThread(), from));
    expect(newestOf(late)).toEqual(blockB.bytes);
    // The answer kept while A was the tip is not served once B is.
    expect(await ask(pooled, from)).toEqual(late);
  });
});
