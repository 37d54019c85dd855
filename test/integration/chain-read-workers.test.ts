/**
 * Heavy chain reads in the worker pool: on the replayed dev chain, the endpoints
 * with a real WorkerPool behind them (tasks opening the node's LMDB environment read-only) give
 * the main thread's answers byte for byte for long height spans, long ID lists, event proofs and
 * state proofs, and the tasks did run. Then the chain moves under the workers: a block stored
 * after they opened their views is served, and once it is reverted and replaced (BlockReceiver,
 * LIP 0014 case 4) the replacement is served and a request made as of the reverted tip is "stale".
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSmtLeaves } from '../../src/chain/event.js';
import { smtKeyFromStateKey } from '../../src/merkle/index.js';
import type { OpenChain } from '../../src/node.js';
import { createChainEndpoints } from '../../src/rpc/endpoints/chain-endpoints.js';
import { OFFLOAD_MIN_STATE_PROOF_KEYS, type ReadTaskPool } from '../../src/rpc/endpoints/chain-read-offload.js';
import { createStateEndpoints } from '../../src/rpc/endpoints/state-endpoints.js';
import { chainReadBlocks } from '../../src/workers/tasks/chain-read-blocks.js';
import { WorkerPool } from '../../src/workers/worker-pool.js';
import { dispatcherFor, type CallAnswer } from '../unit/endpoints/support.js';
import { blockReceiverFor, forkedDevChain, openDevChain, type ForkedDevChain } from './chain-read-support.js';

type Call = (method: string, params?: Record<string, unknown>) => Promise<CallAnswer>;

describe('chain reads in the worker pool', () => {
  let forked: ForkedDevChain;
  let chain: OpenChain;
  let pool: WorkerPool;
  const ran: string[] = [];
  /** Endpoints reading on the main thread only, and endpoints with the pool behind them. */
  let mainThread: Call;
  let withPool: Call;

  const endpoints = (offload?: { pool: ReadTaskPool; dataPath: string }): Call =>
    dispatcherFor([
      ...createChainEndpoints({
        chainStore: chain.chainStore,
        bft: chain.bft,
        engineState: () => chain.stateDb.engineReader,
        offload,
      }).methods,
      ...createStateEndpoints({
        prover: chain.stateDb,
        offload: offload?.pool,
      }),
    ]);

  beforeAll(async () => {
    forked = await forkedDevChain();
    chain = await openDevChain(forked);
    pool = new WorkerPool({ threads: 2 });
    const counted: ReadTaskPool = {
      run: (name, input, options) => {
        ran.push(name);
        return pool.run(name, input, options);
      },
    };
    mainThread = endpoints();
    withPool = endpoints({ pool: counted, dataPath: forked.dataPath });
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    await chain?.close();
    if (forked) rmSync(forked.workDir, { recursive: true, force: true });
  });

  /** Asks both and expects the same successful text; returns it. */
  const same = async (method: string, params: Record<string, unknown>): Promise<string> => {
    const expected = await mainThread(method, params);
    const answer = await withPool(method, params);
    expect(expected.error).toBeUndefined();
    expect(answer.resultText).toBe(expected.resultText);
    return answer.resultText as string;
  };

  it('answers long spans, long ID lists and proofs as the main thread does, byte for byte', async () => {
    const tip = chain.chainStore.tipHeight();
    ran.length = 0;
    const all = await same('chain_getBlocksByHeightBetween', { from: 0, to: tip });
    expect(JSON.parse(all)).toHaveLength(tip + 1);
    expect(ran).toEqual([chainReadBlocks.name]);
    // The finalized blocks the worker built are now cached on the main thread: no second task.
    const finalized = chain.chainStore.finalizedHeight();
    await same('chain_getBlocksByHeightBetween', { from: 0, to: finalized });
    expect(ran).toEqual([chainReadBlocks.name]);

    const ids = [...Array(40).keys()].map((i) => (chain.chainStore.getHeaderByHeight(tip - i * 10) as { id: Buffer }).id.toString('hex'));
    await same('chain_getBlocksByIDs', { ids: ids.slice(0, 30) });
    // Stops at the first unknown ID, as lisk-sdk.
    const withUnknown = [...ids.slice(0, 12), 'ab'.repeat(32), ...ids.slice(12, 20)];
    expect(JSON.parse(await same('chain_getBlocksByIDs', { ids: withUnknown }))).toHaveLength(12);

    for (const height of [2, 106, tip]) {
      const events = chain.chainStore.getEvents(height) ?? [];
      const present = events.flatMap((event) => eventSmtLeaves(event).map((leaf) => leaf.key.toString('hex')));
      const queries = ['07'.repeat(12), ...present.slice(0, 3)];
      await same('chain_proveEvents', { height, queries });
    }

    const values = chain.env.openDB<Buffer, Buffer>('state.values', { keyEncoding: 'binary', encoding: 'binary' });
    const stateKeys = [...values.getKeys({ limit: OFFLOAD_MIN_STATE_PROOF_KEYS + 2 })].map((key) =>
      smtKeyFromStateKey(key as Buffer).toString('hex'),
    );
    expect(stateKeys.length).toBeGreaterThanOrEqual(OFFLOAD_MIN_STATE_PROOF_KEYS);
    await same('state_prove', { queryKeys: [...stateKeys, '11'.repeat(38)] });
    expect(ran).toContain('chain-read-event-proof');
    expect(ran).toContain('state-read-prove');
  });

  it('keeps short spans and short ID lists on the main thread', async () => {
    ran.length = 0;
    const tip = chain.chainStore.tipHeight();
    await same('chain_getBlocksByHeightBetween', { from: tip - 3, to: tip });
    await same('state_prove', { queryKeys: ['11'.repeat(38)] });
    expect(ran).toEqual([]);
  });

  it('sees blocks stored after the workers opened their views, and never a reverted one', async () => {
    const { blockA, blockB } = forked;
    const receiver = blockReceiverFor(chain);
    const height = blockA.header.height;
    const recent = { from: height - 15, to: height };
    const text = JSON.stringify(blockA.toJSON());

    expect((await receiver.receive(blockA, chain.bft.slotTime(forked.slotB))).kind).toBe('applied');
    ran.length = 0;
    const withA = await same('chain_getBlocksByHeightBetween', recent);
    expect(ran).toEqual([chainReadBlocks.name]);
    expect(withA.startsWith(`[${text},`)).toBe(true);
    const tipA = { height, id: blockA.header.id };

    expect((await receiver.receive(blockB, forked.clock)).kind).toBe('replaced');
    const withB = await same('chain_getBlocksByHeightBetween', recent);
    expect(withB.startsWith(`[${JSON.stringify(blockB.toJSON())},`)).toBe(true);
    // A request made while A was the tip, answered after A was reverted: the worker refuses it.
    expect(
      await pool.run(chainReadBlocks.name, { dataPath: forked.dataPath, tip: tipA, heights: [height] }, { priority: 'reads' }),
    ).toEqual({ stale: true });
    const tipB = { height, id: blockB.header.id };
    const answer = await pool.run<{ stale: false; texts: string[] }>(
      chainReadBlocks.name,
      {
        dataPath: forked.dataPath,
        tip: tipB,
        heights: [height],
      },
      { priority: 'reads' },
    );
    expect(answer.texts).toEqual([JSON.stringify(blockB.toJSON())]);
  });
});
