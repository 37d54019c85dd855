/**
 * The block JSON warm-up (src/rpc/endpoints/block-json-warm-up.ts) over a real ChainStore holding
 * dev-chain heights 0..4, finalized up to 1: it builds the newest blocks first, at most the
 * configured number, and requests for them afterwards read nothing and get lisk-sdk's bytes; it
 * waits while messages keep reaching the server; a warm-up stopped before it ran reads nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChainEndpoints, type ChainReader } from '../../../src/rpc/endpoints/chain-endpoints.js';
import type { GeneratorListBft } from '../../../src/rpc/endpoints/generator-list.js';
import type { StateReader } from '../../../src/state/state-view.js';
import { devLines, dispatcherFor, tempChainStore, type TempChainStore } from './support.js';

const lines = devLines(5);

/** The store with its block reads (the reads that build a block's JSON) recorded, or failing. */
function recordingBlockReads(store: ChainReader, reads: number[], fail = false): ChainReader {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'getBlockByHeight')
        return (height: number) => {
          reads.push(height);
          if (fail) throw new Error('closed');
          return target.getBlockByHeight(height);
        };
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Lets the warm-up's slices (setImmediate) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('block JSON warm-up', () => {
  let temp: TempChainStore;
  let reads: number[];

  beforeEach(() => {
    temp = tempChainStore(lines, 1);
    reads = [];
  });

  afterEach(async () => {
    await temp?.close();
  });

  const endpoints = (warmUpBlocks?: number) =>
    createChainEndpoints({
      chainStore: recordingBlockReads(temp.store, reads),
      bft: {} as GeneratorListBft,
      engineState: () => ({}) as StateReader,
      limits: warmUpBlocks === undefined ? {} : { warmUpBlocks },
    });

  it('builds the newest blocks first, and requests for them read nothing', async () => {
    const chain = endpoints();
    const errors: unknown[] = [];
    chain.warmUp((error) => errors.push(error));
    // Slices of 2 ms each: on a busy machine, one block per slice.
    await vi.waitFor(() => expect(reads).toEqual([4, 3, 2, 1, 0]));
    await settle();
    expect(errors).toEqual([]);
    expect(reads).toEqual([4, 3, 2, 1, 0]);
    const call = dispatcherFor(chain.methods);
    for (const line of lines) {
      expect((await call('chain_getBlockByHeight', { height: line.height })).resultText).toBe(JSON.stringify(line.blockJson));
    }
    expect(reads).toEqual([4, 3, 2, 1, 0]);
  });

  it('stops at the configured number of blocks', async () => {
    endpoints(2).warmUp(() => undefined);
    await vi.waitFor(() => expect(reads).toEqual([4, 3]));
    await settle();
    expect(reads).toEqual([4, 3]);
  });

  it('waits while messages keep arriving, and goes on once they pause', async () => {
    // Busy: a new message every time the warm-up looks.
    let busy = true;
    let messages = 0;
    const stop = endpoints().warmUp(
      () => undefined,
      () => (busy ? ++messages : messages),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reads).toEqual([]);
    expect(messages).toBeGreaterThan(2);
    busy = false;
    await vi.waitFor(() => expect(reads).toEqual([4, 3, 2, 1, 0]));
    stop();
  });

  it('reads nothing once stopped, or when disabled', async () => {
    const stop = endpoints().warmUp(() => undefined);
    stop();
    endpoints(0).warmUp(() => undefined);
    await settle();
    expect(reads).toEqual([]);
  });

  it('reports a failing store and stops', async () => {
    const failing = createChainEndpoints({
      chainStore: recordingBlockReads(temp.store, reads, true),
      bft: {} as GeneratorListBft,
      engineState: () => ({}) as StateReader,
    });
    const errors: unknown[] = [];
    failing.warmUp((error) => errors.push(error));
    await settle();
    expect(errors.map((error) => (error as Error).message)).toEqual(['closed']);
    expect(reads).toEqual([4]);
  });
});
