/**
 * The immutable-answer caches of the chain endpoints over a real ChainStore
 * holding dev-chain heights 0..4 (transactions at 2 and 3; finalized up to 1): the tip's JSON is
 * built once per tip, transactions once per ID, finalized events once per height, every answer
 * byte-equal to lisk-sdk's recorded JSON, and nothing of a deleted block is served afterwards.
 * Blocks are deleted with ChainStore.deleteTipBlock, the write the processor's revert makes;
 * test/integration/chain-read-cache.test.ts does it through the fork-choice path.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChainEndpoints, type ChainReader } from '../../../src/rpc/endpoints/chain-endpoints.js';
import type { GeneratorListBft } from '../../../src/rpc/endpoints/generator-list.js';
import type { StateReader } from '../../../src/state/state-view.js';
import { devLines, dispatcherFor, tempChainStore, type CallAnswer, type TempChainStore } from './support.js';

const lines = devLines(5);
const FINALIZED = 1;
const line = (height: number) => lines[height] as (typeof lines)[number];
const blockText = (height: number) => JSON.stringify(line(height).blockJson);

interface Reads {
  blocks: number[];
  /** Reads of the ID index (the still-stored check). */
  ids: number;
  transactions: number;
  events: number[];
}

/** The store, with the decoding reads counted: a cached answer makes none. */
function countingReader(store: ChainReader, reads: Reads): ChainReader {
  return {
    tipHeight: () => store.tipHeight(),
    genesisHeight: () => store.genesisHeight(),
    finalizedHeight: () => store.finalizedHeight(),
    getHeightById: (id) => {
      reads.ids += 1;
      return store.getHeightById(id);
    },
    get blockDeletions() {
      return store.blockDeletions;
    },
    getHeaderByHeight: (height) => store.getHeaderByHeight(height),
    getBlockByHeight: (height) => {
      reads.blocks.push(height);
      return store.getBlockByHeight(height);
    },
    getTransaction: (id) => {
      reads.transactions += 1;
      return store.getTransaction(id);
    },
    getEvents: (height) => {
      reads.events.push(height);
      return store.getEvents(height);
    },
  };
}

describe('chain endpoint caches', () => {
  let temp: TempChainStore;
  let reads: Reads;
  let call: (method: string, params?: Record<string, unknown>) => Promise<CallAnswer>;

  beforeEach(() => {
    temp = tempChainStore(lines, FINALIZED);
    reads = { blocks: [], ids: 0, transactions: 0, events: [] };
    const { methods } = createChainEndpoints({
      chainStore: countingReader(temp.store, reads),
      bft: {} as GeneratorListBft,
      engineState: () => ({}) as StateReader,
    });
    call = dispatcherFor(methods);
  });

  afterEach(async () => {
    await temp?.close();
  });

  const deleteTip = () => temp.env.transactionSync(() => temp.store.deleteTipBlock());
  const store = (height: number) =>
    temp.env.transactionSync(() => temp.store.saveBlock(line(height).block, line(height).events, FINALIZED));
  const lastBlockText = async () => (await call('chain_getLastBlock')).resultText;

  it('builds the tip JSON once per tip and follows stored and deleted blocks', async () => {
    for (let i = 0; i < 3; i += 1) expect(await lastBlockText()).toBe(blockText(4));
    expect(reads.blocks).toEqual([4]);

    deleteTip();
    expect(await lastBlockText()).toBe(blockText(3));
    deleteTip();
    expect(await lastBlockText()).toBe(blockText(2));
    expect(await lastBlockText()).toBe(blockText(2));
    expect(reads.blocks).toEqual([4, 3, 2]);

    store(3);
    expect(await lastBlockText()).toBe(blockText(3));
    expect(reads.blocks).toEqual([4, 3, 2, 3]);
  });

  it('never serves the tip JSON of a deleted block, even when another block took its height', async () => {
    expect(await lastBlockText()).toBe(blockText(4));
    // Height 4 deleted and height 3 too, then 3 stored again: the tip is at 3, a height the
    // cache held before, but the cached entry is 4's, so it must not answer.
    deleteTip();
    deleteTip();
    store(3);
    expect(await lastBlockText()).toBe(blockText(3));
    // The same block stored again at 4 is the same answer.
    store(4);
    expect(await lastBlockText()).toBe(blockText(4));
  });

  it('serves a cached block above the finalized height without an ID read until a block is deleted', async () => {
    const blockAt = async (height: number) => (await call('chain_getBlockByHeight', { height })).resultText;
    expect(await blockAt(3)).toBe(blockText(3));
    const idsAfterBuild = reads.ids;
    for (let i = 0; i < 3; i += 1) expect(await blockAt(3)).toBe(blockText(3));
    expect(reads.ids).toBe(idsAfterBuild);
    expect(reads.blocks).toEqual([3]);

    deleteTip(); // 4: block 3 stays, which one ID read confirms
    expect(await blockAt(3)).toBe(blockText(3));
    expect(reads.ids).toBe(idsAfterBuild + 1);
    expect(reads.blocks).toEqual([3]);

    deleteTip(); // 3
    const gone = await call('chain_getBlockByHeight', { height: 3 });
    expect(gone.error).toEqual({ code: -32001, message: 'No block at height 3 (the tip is at 2).' });
    store(3);
    expect(await blockAt(3)).toBe(blockText(3));
  });

  it('serves transactions by ID from the cache, never after their block was deleted', async () => {
    const atThree = line(3).blockJson.transactions;
    const atTwo = line(2).blockJson.transactions;
    const ids = atThree.map((tx) => tx.id);
    for (let i = 0; i < 2; i += 1) {
      for (const tx of atThree) expect((await call('chain_getTransactionByID', { id: tx.id })).resultText).toBe(JSON.stringify(tx));
    }
    expect(reads.transactions).toBe(atThree.length);
    expect((await call('chain_getTransactionsByIDs', { ids: ids.slice(0, 4) })).resultText).toBe(JSON.stringify(atThree.slice(0, 4)));
    expect(reads.transactions).toBe(atThree.length);

    deleteTip(); // 4: its parent 3 and the transactions in it stay
    expect((await call('chain_getTransactionByID', { id: ids[0] })).resultText).toBe(JSON.stringify(atThree[0]));
    deleteTip(); // 3
    const gone = await call('chain_getTransactionByID', { id: ids[0] });
    expect(gone.error).toEqual({ code: -32001, message: `Transaction with ID ${ids[0]} does not exist.` });
    const mixed = await call('chain_getTransactionsByIDs', { ids: [atTwo[0]?.id, ids[1]] });
    expect(mixed.resultText).toBe(JSON.stringify([atTwo[0]]));

    store(3);
    expect((await call('chain_getTransactionByID', { id: ids[0] })).resultText).toBe(JSON.stringify(atThree[0]));
  });

  it('caches events of finalized heights only, with the exact recorded JSON', async () => {
    for (let i = 0; i < 2; i += 1) {
      for (const height of [0, 1, 2, 3, 4]) {
        expect((await call('chain_getEvents', { height })).resultText).toBe(JSON.stringify(line(height).eventsJson));
      }
    }
    // 0 and 1 are finalized: read once; 2..4 can still be reverted: read on every call.
    expect(reads.events).toEqual([0, 1, 2, 3, 4, 2, 3, 4]);
    deleteTip();
    const deleted = await call('chain_getEvents', { height: 4 });
    expect(deleted.error).toEqual({ code: -32001, message: 'No block at height 4 (the tip is at 3).' });
  });

  it('answers blocks by ID and height ranges of finalized and unfinalized heights exactly', async () => {
    expect((await call('chain_getBlocksByHeightBetween', { from: 0, to: 4 })).resultText).toBe(
      `[${[4, 3, 2, 1, 0].map(blockText).join(',')}]`,
    );
    const ids = [4, 1].map((height) => line(height).id);
    expect((await call('chain_getBlocksByIDs', { ids })).resultText).toBe(`[${blockText(4)},${blockText(1)}]`);
    deleteTip();
    expect((await call('chain_getBlocksByIDs', { ids })).resultText).toBe('[]');
    expect((await call('chain_getBlocksByHeightBetween', { from: 0, to: 4 })).resultText).toBe(
      `[${[3, 2, 1, 0].map(blockText).join(',')}]`,
    );
  });
});
