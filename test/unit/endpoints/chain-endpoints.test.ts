/**
 * The `chain_*` methods over a real ChainStore holding dev-chain heights 0..11 (finalized up to
 * 5), called through the real dispatcher: results equal lisk-sdk's recorded JSON, errors carry
 * the documented codes and messages, limits hold, and only finalized blocks are cached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSmtLeaves } from '../../../src/chain/event.js';
import { encodeLisk32Address } from '../../../src/codec/index.js';
import { createChainEndpoints, type ChainReader } from '../../../src/rpc/endpoints/chain-endpoints.js';
import type { GeneratorListBft } from '../../../src/rpc/endpoints/generator-list.js';
import { EVENT_KEY_LENGTH, verifyInclusionProof, verifyNonInclusionProof } from '../../../src/merkle/index.js';
import type { StateReader } from '../../../src/state/state-view.js';
import { devLines, dispatcherFor, proofFromJSON, tempChainStore, type CallAnswer, type TempChainStore } from './support.js';

const lines = devLines(12);
const FINALIZED = 5;
const UNKNOWN_ID = 'ab'.repeat(32);
const noState = {} as StateReader;

/** A BFT stand-in with three validators and 10-second slots. */
function fakeBft(asked: number[] = []): GeneratorListBft {
  const address = (byte: number) => Buffer.alloc(20, byte);
  return {
    getParameters: (_state, height) => {
      asked.push(height);
      const validators = [1, 2, 3].map((byte) => ({ address: address(byte) }));
      return { validators } as unknown as ReturnType<GeneratorListBft['getParameters']>;
    },
    slotNumber: (timestamp) => Math.floor(timestamp / 10),
    slotTime: (slot) => slot * 10,
  };
}

/** A reader that counts block reads by height, to observe the cache. */
function countingReader(store: ChainReader, reads: Map<number, number>): ChainReader {
  return {
    tipHeight: () => store.tipHeight(),
    genesisHeight: () => store.genesisHeight(),
    finalizedHeight: () => store.finalizedHeight(),
    getHeightById: (id) => store.getHeightById(id),
    get blockDeletions() {
      return store.blockDeletions;
    },
    getHeaderByHeight: (height) => store.getHeaderByHeight(height),
    getTransaction: (id) => store.getTransaction(id),
    getEvents: (height) => store.getEvents(height),
    getBlockByHeight: (height) => {
      reads.set(height, (reads.get(height) ?? 0) + 1);
      return store.getBlockByHeight(height);
    },
  };
}

describe('chain endpoints', () => {
  let temp: TempChainStore;
  let call: (method: string, params?: Record<string, unknown>) => Promise<CallAnswer>;
  const asked: number[] = [];

  beforeAll(() => {
    temp = tempChainStore(lines, FINALIZED);
    const { methods } = createChainEndpoints({
      chainStore: temp.store,
      bft: fakeBft(asked),
      engineState: () => noState,
      now: () => 1005,
      limits: { maxIdsPerRequest: 4, maxHeightSpan: 5, maxProofQueries: 3 },
    });
    call = dispatcherFor(methods);
  });

  afterAll(async () => {
    await temp?.close();
  });

  const blockText = (height: number) => JSON.stringify(lines[height]?.blockJson);
  const expectError = async (method: string, params: Record<string, unknown>, code: number, message: string) => {
    const answer = await call(method, params);
    expect(answer.result).toBeUndefined();
    expect(answer.error).toEqual({ code, message });
  };

  it('registers the 13 chain methods as public methods', () => {
    const { methods } = createChainEndpoints({ chainStore: temp.store, bft: fakeBft(), engineState: () => noState });
    expect(methods.map((m) => `${m.namespace}_${m.name}`).sort()).toEqual(
      [
        'getBlockByID',
        'getBlocksByIDs',
        'getBlockByHeight',
        'getBlocksByHeightBetween',
        'getTransactionByID',
        'getTransactionsByIDs',
        'getTransactionsByHeight',
        'getAssetsByHeight',
        'getLastBlock',
        'getEvents',
        'proveEvents',
        'areHeadersContradicting',
        'getGeneratorList',
      ]
        .map((name) => `chain_${name}`)
        .sort(),
    );
    expect(methods.every((m) => m.sensitive !== true)).toBe(true);
  });

  describe('blocks', () => {
    it('serves a block by height and by ID as lisk-sdk recorded it, final or not', async () => {
      for (const height of [0, 2, FINALIZED, 11]) {
        expect((await call('chain_getBlockByHeight', { height })).resultText).toBe(blockText(height));
        expect((await call('chain_getBlockByID', { id: lines[height]?.id })).resultText).toBe(blockText(height));
      }
      expect((await call('chain_getLastBlock')).resultText).toBe(blockText(11));
    });

    it('answers -32001 naming the height or the ID', async () => {
      await expectError('chain_getBlockByHeight', { height: 12 }, -32001, 'No block at height 12 (the tip is at 11).');
      await expectError('chain_getBlockByHeight', { height: 4294967295 }, -32001, 'No block at height 4294967295 (the tip is at 11).');
      await expectError('chain_getBlockByID', { id: UNKNOWN_ID }, -32001, `Block with ID ${UNKNOWN_ID} does not exist.`);
    });

    it('names the chain start for heights below a non-zero genesis height', async () => {
      const shifted: ChainReader = { ...countingReader(temp.store, new Map()), genesisHeight: () => 3 };
      const { methods } = createChainEndpoints({ chainStore: shifted, bft: fakeBft(), engineState: () => noState });
      const shiftedCall = dispatcherFor(methods);
      expect((await shiftedCall('chain_getBlockByHeight', { height: 2 })).error).toEqual({
        code: -32001,
        message: 'No block at height 2 (the chain starts at height 3).',
      });
      const range = await shiftedCall('chain_getBlocksByHeightBetween', { from: 0, to: 4 });
      expect(range.resultText).toBe(`[${blockText(4)},${blockText(3)}]`);
    });

    it('refuses negative, fractional, huge and non-numeric heights with -32602', async () => {
      await expectError('chain_getBlockByHeight', { height: -1 }, -32602, 'Invalid params: params.height: must be >= 0');
      await expectError('chain_getBlockByHeight', { height: 0.5 }, -32602, 'Invalid params: params.height: must be integer');
      await expectError('chain_getBlockByHeight', { height: 2 ** 32 }, -32602, 'Invalid params: params.height: must be <= 4294967295');
      await expectError('chain_getBlockByHeight', { height: '1' }, -32602, 'Invalid params: params.height: must be integer');
      await expectError('chain_getBlockByHeight', {}, -32602, "Invalid params: params: must have required property 'height'");
      await expectError('chain_getEvents', { height: -5 }, -32602, 'Invalid params: params.height: must be >= 0');
    });

    it('refuses IDs that are not 64 hex characters with -32602', async () => {
      await expectError(
        'chain_getBlockByID',
        { id: 'xyz' },
        -32602,
        'Invalid params: params.id: must NOT have fewer than 64 characters; params.id: must match format "hex"',
      );
      const notHex = `${'z'.repeat(64)}`;
      await expectError('chain_getBlockByID', { id: notHex }, -32602, 'Invalid params: params.id: must match format "hex"');
      const tooLong = `${UNKNOWN_ID}00`;
      const longMessage = 'Invalid params: params.id: must NOT have more than 64 characters';
      await expectError('chain_getTransactionByID', { id: tooLong }, -32602, longMessage);
      await expectError('chain_getBlockByID', { id: 5 }, -32602, 'Invalid params: params.id: must be string');
    });

    it('serves blocks by IDs in request order, stopping at the first unknown ID as lisk-sdk does', async () => {
      const ids = [lines[3]?.id, lines[1]?.id, lines[7]?.id];
      expect((await call('chain_getBlocksByIDs', { ids })).resultText).toBe(`[${blockText(3)},${blockText(1)},${blockText(7)}]`);
      const withUnknown = [lines[3]?.id, UNKNOWN_ID, lines[7]?.id];
      expect((await call('chain_getBlocksByIDs', { ids: withUnknown })).resultText).toBe(`[${blockText(3)}]`);
      await expectError('chain_getBlocksByIDs', { ids: [] }, -32602, 'Invalid params: params.ids: must NOT have fewer than 1 items');
      await expectError(
        'chain_getBlocksByIDs',
        { ids: Array(5).fill(UNKNOWN_ID) },
        -32602,
        'Invalid params: params.ids: must NOT have more than 4 items',
      );
    });

    it('serves height ranges highest first, clamped to the chain, with a span limit', async () => {
      expect((await call('chain_getBlocksByHeightBetween', { from: 2, to: 4 })).resultText).toBe(
        `[${blockText(4)},${blockText(3)},${blockText(2)}]`,
      );
      expect((await call('chain_getBlocksByHeightBetween', { from: 10, to: 14 })).resultText).toBe(`[${blockText(11)},${blockText(10)}]`);
      expect((await call('chain_getBlocksByHeightBetween', { from: 12, to: 16 })).resultText).toBe('[]');
      expect((await call('chain_getBlocksByHeightBetween', { from: 4, to: 2 })).resultText).toBe('[]');
      await expectError(
        'chain_getBlocksByHeightBetween',
        { from: 0, to: 5 },
        -32602,
        'Invalid params: heights 0 to 5 span 6 blocks; at most 5 may be asked at once.',
      );
      await expectError('chain_getBlocksByHeightBetween', { from: 0 }, -32602, "Invalid params: params: must have required property 'to'");
    });
  });

  describe('transactions, assets and events', () => {
    const withTransactions = lines[2] as (typeof lines)[number];

    it('serves transactions by ID, by IDs and by height', async () => {
      const transactions = withTransactions.blockJson.transactions;
      expect(transactions.length).toBe(11);
      for (const transaction of transactions) {
        expect((await call('chain_getTransactionByID', { id: transaction.id })).result).toEqual(transaction);
      }
      const ids = transactions.slice(0, 4).map((tx) => tx.id);
      expect((await call('chain_getTransactionsByIDs', { ids })).resultText).toBe(JSON.stringify(transactions.slice(0, 4)));
      expect((await call('chain_getTransactionsByIDs', { ids: [ids[0], UNKNOWN_ID, ids[1]] })).result).toEqual([transactions[0]]);
      expect((await call('chain_getTransactionsByHeight', { height: 2 })).resultText).toBe(JSON.stringify(transactions));
      expect((await call('chain_getTransactionsByHeight', { height: 1 })).result).toEqual([]);
      await expectError('chain_getTransactionByID', { id: UNKNOWN_ID }, -32001, `Transaction with ID ${UNKNOWN_ID} does not exist.`);
      await expectError('chain_getTransactionsByHeight', { height: 99 }, -32001, 'No block at height 99 (the tip is at 11).');
      await expectError(
        'chain_getTransactionsByIDs',
        { ids: Array(5).fill(UNKNOWN_ID) },
        -32602,
        'Invalid params: params.ids: must NOT have more than 4 items',
      );
    });

    it('serves assets by height', async () => {
      for (const height of [0, 1, 2]) {
        expect((await call('chain_getAssetsByHeight', { height })).resultText).toBe(JSON.stringify(lines[height]?.blockJson.assets));
      }
      await expectError('chain_getAssetsByHeight', { height: 12 }, -32001, 'No block at height 12 (the tip is at 11).');
    });

    it('serves events by height; pruned events are an empty list as in lisk-sdk', async () => {
      for (const line of lines) {
        expect((await call('chain_getEvents', { height: line.height })).resultText).toBe(JSON.stringify(line.eventsJson));
      }
      await expectError('chain_getEvents', { height: 12 }, -32001, 'No block at height 12 (the tip is at 11).');
      const temporary = tempChainStore(lines.slice(0, 4), 0);
      try {
        temporary.env.transactionSync(() => temporary.store.deleteEventsUpTo(1));
        const { methods } = createChainEndpoints({ chainStore: temporary.store, bft: fakeBft(), engineState: () => noState });
        const prunedCall = dispatcherFor(methods);
        expect((await prunedCall('chain_getEvents', { height: 1 })).result).toEqual([]);
        expect((await prunedCall('chain_getEvents', { height: 2 })).resultText).toBe(JSON.stringify(lines[2]?.eventsJson));
      } finally {
        await temporary.close();
      }
    });

    it('proves events against the header eventRoot (inclusion and non-inclusion)', async () => {
      const eventRoot = Buffer.from(withTransactions.blockJson.header.eventRoot as string, 'hex');
      const keys = withTransactions.events.flatMap((event) => eventSmtLeaves(event).map((leaf) => leaf.key)).slice(0, 3);
      const answer = await call('chain_proveEvents', { height: 2, queries: keys.map((k) => k.toString('hex')) });
      // No `proof` wrapper, as lisk-sdk.
      expect(Object.keys(answer.result as object)).toEqual(['queries', 'siblingHashes']);
      expect(verifyInclusionProof(keys, proofFromJSON(answer.result), eventRoot, EVENT_KEY_LENGTH)).toBe(true);
      const absent = [Buffer.alloc(12, 7)];
      const absentAnswer = await call('chain_proveEvents', { height: 2, queries: ['07'.repeat(12)] });
      expect(verifyNonInclusionProof(absent, proofFromJSON(absentAnswer.result), eventRoot, EVENT_KEY_LENGTH)).toBe(true);
      expect((await call('chain_proveEvents', { height: 2, queries: [] })).result).toEqual({ queries: [], siblingHashes: [] });
    });

    it('refuses bad event proof requests', async () => {
      const short = 'Invalid params: params.queries[0]: must NOT have fewer than 24 characters';
      await expectError('chain_proveEvents', { height: 2, queries: ['00'] }, -32602, short);
      const many = Array(4).fill('00'.repeat(12));
      const manyMessage = 'Invalid params: params.queries: must NOT have more than 3 items';
      await expectError('chain_proveEvents', { height: 2, queries: many }, -32602, manyMessage);
      await expectError('chain_proveEvents', { height: 2 }, -32602, "Invalid params: params: must have required property 'queries'");
      await expectError('chain_proveEvents', { height: 40, queries: [] }, -32001, 'No block at height 40 (the tip is at 11).');
    });
  });

  describe('areHeadersContradicting', () => {
    const header = (height: number) => (lines[height] as (typeof lines)[number]).block.header;
    const hexOf = (h: { bytes: Buffer }) => h.bytes.toString('hex');
    const contradicting = async (a: { bytes: Buffer }, b: { bytes: Buffer }) =>
      (await call('chain_areHeadersContradicting', { header1: hexOf(a), header2: hexOf(b) })).result;

    it('is false for the same header and for headers of different generators', async () => {
      expect(await contradicting(header(3), header(3))).toEqual({ valid: false });
      expect(header(3).generatorAddress.equals(header(4).generatorAddress)).toBe(false);
      expect(await contradicting(header(3), header(4))).toEqual({ valid: false });
    });

    it('is true for a double-forged height and for a lower prevote height', async () => {
      const h = header(8);
      const twin = h.with({ timestamp: h.timestamp + 1 });
      expect(await contradicting(h, twin)).toEqual({ valid: true });
      const earlier = h.with({ maxHeightPrevoted: 5 });
      const later = h.with({ height: h.height + 5, maxHeightGenerated: h.height, maxHeightPrevoted: 4 });
      expect(await contradicting(earlier, later)).toEqual({ valid: true });
      const honest = h.with({ height: h.height + 5, maxHeightGenerated: h.height });
      expect(await contradicting(h, honest)).toEqual({ valid: false });
    });

    it('refuses undecodable headers and bad hex with -32602', async () => {
      const bad = await call('chain_areHeadersContradicting', { header1: '0a00', header2: hexOf(header(3)) });
      expect(bad.error?.code).toBe(-32602);
      const notHex = 'Invalid params: params.header1: must match format "hex"';
      await expectError('chain_areHeadersContradicting', { header1: 'xx', header2: '00' }, -32602, notHex);
      const missing = "Invalid params: params: must have required property 'header2'";
      await expectError('chain_areHeadersContradicting', { header1: '00' }, -32602, missing);
    });
  });

  describe('getGeneratorList', () => {
    it('rotates the validators of the next height to the current slot, one block time apart', async () => {
      asked.length = 0;
      const answer = await call('chain_getGeneratorList');
      const address = (byte: number) => encodeLisk32Address(Buffer.alloc(20, byte));
      // now 1005 → slot 100 → 100 mod 3 = 1: the second validator owns the current slot.
      expect(answer.result).toEqual({
        list: [
          { address: address(2), nextAllocatedTime: 1000 },
          { address: address(3), nextAllocatedTime: 1010 },
          { address: address(1), nextAllocatedTime: 1020 },
        ],
      });
      expect(asked).toEqual([12]);
    });

    it('looks at height 1 while only the genesis block exists', async () => {
      const genesisOnly = tempChainStore(lines.slice(0, 1), 0);
      try {
        const heights: number[] = [];
        const { methods } = createChainEndpoints({
          chainStore: genesisOnly.store,
          bft: fakeBft(heights),
          engineState: () => noState,
          now: () => 0,
        });
        expect(((await dispatcherFor(methods)('chain_getGeneratorList')).result as { list: unknown[] }).list).toHaveLength(3);
        expect(heights).toEqual([1]);
      } finally {
        await genesisOnly.close();
      }
    });
  });

  describe('finalized block cache', () => {
    it('reads a block from the store once, final or not while it is stored, and forgets on dropCacheAbove', async () => {
      const reads = new Map<number, number>();
      const endpoints = createChainEndpoints({ chainStore: countingReader(temp.store, reads), bft: fakeBft(), engineState: () => noState });
      const cachedCall = dispatcherFor(endpoints.methods);
      for (let i = 0; i < 3; i += 1) {
        expect((await cachedCall('chain_getBlockByHeight', { height: 4 })).resultText).toBe(blockText(4));
        expect((await cachedCall('chain_getBlockByID', { id: lines[4]?.id })).resultText).toBe(blockText(4));
        expect((await cachedCall('chain_getBlockByHeight', { height: 9 })).resultText).toBe(blockText(9));
      }
      expect(reads.get(4)).toBe(1);
      // Above the finalized height the entry is checked against the ID index on every read.
      expect(reads.get(9)).toBe(1);
      // Ranges and ID lists go through the same cache.
      const range = await cachedCall('chain_getBlocksByHeightBetween', { from: 3, to: 5 });
      expect(range.resultText).toBe(`[${blockText(5)},${blockText(4)},${blockText(3)}]`);
      expect(reads.get(4)).toBe(1);
      endpoints.dropCacheAbove(3);
      expect((await cachedCall('chain_getBlockByHeight', { height: 4 })).resultText).toBe(blockText(4));
      expect(reads.get(4)).toBe(2);
      expect(reads.get(3)).toBe(1);
    });

    it('can be switched off', async () => {
      const reads = new Map<number, number>();
      const { methods } = createChainEndpoints({
        chainStore: countingReader(temp.store, reads),
        bft: fakeBft(),
        engineState: () => noState,
        limits: { blockCacheChars: 0 },
      });
      const uncachedCall = dispatcherFor(methods);
      await uncachedCall('chain_getBlockByHeight', { height: 1 });
      await uncachedCall('chain_getBlockByHeight', { height: 1 });
      expect(reads.get(1)).toBe(2);
    });
  });
});
