/**
 * The main thread's side of the worker reads, with the worker tasks run in this thread (they
 * open a read-only view of the same LMDB environment, as in a pool thread): which requests go to
 * a task, that the answers equal the main-thread ones byte for byte, that the finalized blocks a
 * task built are cached, and that a "stale" answer (the tip was reverted before the worker read)
 * makes the main thread answer itself. test/integration/chain-read-workers.test.ts runs the same
 * through a real WorkerPool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainStore } from '../../../src/chain/chain-store.js';
import { eventSmtLeaves } from '../../../src/chain/event.js';
import { createChainEndpoints } from '../../../src/rpc/endpoints/chain-endpoints.js';
import { OFFLOAD_MIN_UNCACHED_BLOCKS, type ReadTaskPool } from '../../../src/rpc/endpoints/chain-read-offload.js';
import type { GeneratorListBft } from '../../../src/rpc/endpoints/generator-list.js';
import type { StateReader } from '../../../src/state/state-view.js';
import { WorkerPoolError } from '../../../src/workers/worker-pool.js';
import { chainReadBlocks } from '../../../src/workers/tasks/chain-read-blocks.js';
import { CHAIN_ENV_OPTIONS, chainEnvPath, closeChainReadViews } from '../../../src/workers/tasks/chain-read-env.js';
import { chainReadEventProof } from '../../../src/workers/tasks/chain-read-event-proof.js';
import { devLines, dispatcherFor, type CallAnswer } from './support.js';

const lines = devLines(30);
const FINALIZED = 5;
const TASKS = [chainReadBlocks, chainReadEventProof];
type Call = (method: string, params?: Record<string, unknown>) => Promise<CallAnswer>;

describe('chain reads offloaded to worker tasks', () => {
  let dir: string;
  let env: RootDatabase;
  let store: ChainStore;
  const ran: string[] = [];
  let answerStale = false;
  let poolClosed = false;
  let mainThread: Call;
  let offloaded: Call;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-offload-'));
    env = open({ path: chainEnvPath(dir), ...CHAIN_ENV_OPTIONS });
    store = new ChainStore(env);
    env.transactionSync(() => {
      for (const line of lines) store.saveBlock(line.block, line.events, Math.min(line.height, FINALIZED));
    });
    const pool: ReadTaskPool = {
      run: async (name, input) => {
        ran.push(name);
        if (answerStale) return { stale: true };
        if (poolClosed) throw new WorkerPoolError('The worker pool is closed.');
        const task = TASKS.find((candidate) => candidate.name === name);
        return task?.run(input as never);
      },
    };
    const endpoints = (offload?: { pool: ReadTaskPool; dataPath: string }) =>
      dispatcherFor(
        createChainEndpoints({ chainStore: store, bft: {} as GeneratorListBft, engineState: () => ({}) as StateReader, offload }).methods,
      );
    mainThread = endpoints();
    offloaded = endpoints({ pool, dataPath: dir });
  });

  afterAll(async () => {
    await closeChainReadViews();
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const same = async (method: string, params: Record<string, unknown>): Promise<string> => {
    const expected = await mainThread(method, params);
    const answer = await offloaded(method, params);
    expect(answer.resultText).toBeDefined();
    expect(answer.resultText).toBe(expected.resultText);
    return answer.resultText as string;
  };

  it('sends spans with enough uncached blocks to a task, and caches the finalized ones it built', async () => {
    ran.length = 0;
    const text = await same('chain_getBlocksByHeightBetween', { from: 0, to: 29 });
    expect(text).toBe(
      `[${lines
        .map((line) => JSON.stringify(line.blockJson))
        .reverse()
        .join(',')}]`,
    );
    expect(ran).toEqual(['chain-read-blocks']);
    // 0..5 are cached now; 6..29 are not final and 6..12 is below the threshold.
    expect(12 - 6 + 1).toBeLessThan(OFFLOAD_MIN_UNCACHED_BLOCKS);
    await same('chain_getBlocksByHeightBetween', { from: 0, to: 12 });
    await same('chain_getBlocksByIDs', { ids: lines.slice(0, 6).map((line) => line.id) });
    expect(ran).toEqual(['chain-read-blocks']);
    await same('chain_getBlocksByIDs', { ids: lines.slice(0, 20).map((line) => line.id) });
    expect(ran).toEqual(['chain-read-blocks', 'chain-read-blocks']);
  });

  it('proves events in a task with the main thread answer, and refuses heights outside the chain first', async () => {
    ran.length = 0;
    const keys = lines[2]?.events.flatMap((event) => eventSmtLeaves(event).map((leaf) => leaf.key.toString('hex'))) ?? [];
    await same('chain_proveEvents', { height: 2, queries: keys.slice(0, 3) });
    expect(ran).toEqual(['chain-read-event-proof']);
    const outside = await offloaded('chain_proveEvents', { height: 99, queries: [] });
    expect(outside.error).toEqual({ code: -32001, message: 'No block at height 99 (the tip is at 29).' });
    expect(ran).toEqual(['chain-read-event-proof']);
  });

  it('answers on the main thread when the worker finds the tip reverted', async () => {
    answerStale = true;
    try {
      ran.length = 0;
      await same('chain_getBlocksByHeightBetween', { from: 10, to: 29 });
      await same('chain_proveEvents', { height: 3, queries: [] });
      expect(ran).toEqual(['chain-read-blocks', 'chain-read-event-proof']);
    } finally {
      answerStale = false;
    }
  });

  it('answers on the main thread when the pool cannot run the task (closed while the node stops)', async () => {
    poolClosed = true;
    try {
      ran.length = 0;
      await same('chain_getBlocksByHeightBetween', { from: 10, to: 29 });
      expect(ran).toEqual(['chain-read-blocks']);
    } finally {
      poolClosed = false;
    }
  });

  it('serves only blocks at or below the tip it was given, and "stale" once that tip is gone', () => {
    const tip = { height: 29, id: lines[29]?.block.header.id as Buffer };
    expect(() => chainReadBlocks.run({ dataPath: dir, tip, heights: [30] })).toThrow(RangeError);
    expect(chainReadBlocks.run({ dataPath: dir, tip, heights: [29] })).toEqual({
      stale: false,
      texts: [JSON.stringify(lines[29]?.blockJson)],
    });
    env.transactionSync(() => store.deleteTipBlock());
    expect(chainReadBlocks.run({ dataPath: dir, tip, heights: [28] })).toEqual({ stale: true });
  });
});
