/**
 * The block and transaction procedures over the dev fixture chain (a real lisk-sdk 6.1 chain),
 * called directly: answers, order, limits and the penalties each malformed request costs.
 */
import { describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { codec } from '../../../src/codec/index.js';
import { chainProcedures } from '../../../src/p2p/chain-procedures.js';
import { EncodedPayload } from '../../../src/p2p/envelopes.js';
import type { P2pCallContext, ProcedureHandler } from '../../../src/p2p/handlers.js';
import * as schemas from '../../../src/p2p/schemas.js';
import { devChain, type MemoryChain } from './support/memory-chain.js';

const chain = devChain();
const txA = Buffer.from('0a0174', 'hex');
const txB = Buffer.from('0a0175', 'hex');
const procedures = chainProcedures(chain, {
  processable: (limit) => [txA, txB].slice(0, limit),
  byIds: (ids) => (ids.some((id) => id.equals(Buffer.alloc(32, 1))) ? [txA] : []),
});

async function call(
  handler: ProcedureHandler | undefined,
  data: Buffer | undefined,
): Promise<{ answer?: Buffer; error?: string; penalties: number[] }> {
  const penalties: number[] = [];
  const context: P2pCallContext = { peerId: '127.0.0.9:1', penalize: (points) => penalties.push(points) };
  try {
    const answer = await handler!(data, context);
    if (answer === undefined) return { penalties };
    return { answer: answer instanceof EncodedPayload ? Buffer.from(answer.base64, 'base64') : Buffer.from(answer), penalties };
  } catch (error) {
    return { error: (error as Error).message, penalties };
  }
}

const blocksFrom = (blockId: Buffer) => codec.encode(schemas.getBlocksFromIdRequestSchema, { blockId });
const heightsOf = (answer: Buffer | undefined) =>
  codec
    .decode<{ blocks: Buffer[] }>(schemas.getBlocksFromIdResponseSchema, answer!)
    .blocks.map((bytes) => Block.fromBytes(bytes).header.height);

describe('getLastBlock', () => {
  it('answers the tip block bytes, unwrapped', async () => {
    const { answer } = await call(procedures.getLastBlock, undefined);
    expect(answer).toEqual(chain.lastBlock());
    expect(Block.fromBytes(answer!).header.height).toBe(420);
  });
});

describe('getBlocksFromId', () => {
  it('answers the next 103 blocks after the given one, newest first', async () => {
    const { answer, penalties } = await call(procedures.getBlocksFromId, blocksFrom(chain.idAt(0)));
    const heights = heightsOf(answer);
    expect(heights).toHaveLength(103);
    expect(heights[0]).toBe(103);
    expect(heights.at(-1)).toBe(1);
    expect(penalties).toEqual([]);
  });

  it('stops at the tip, and answers an empty list (no bytes) from the tip itself', async () => {
    expect(heightsOf((await call(procedures.getBlocksFromId, blocksFrom(chain.idAt(400)))).answer)).toEqual(
      Array.from({ length: 20 }, (_, i) => 420 - i),
    );
    expect((await call(procedures.getBlocksFromId, blocksFrom(chain.idAt(420)))).answer).toEqual(Buffer.alloc(0));
  });

  it('keeps the base64 of answers wholly at or below the finalized height, and only those', async () => {
    const finalizing = Object.assign(Object.create(chain) as MemoryChain, { finalizedHeight: () => 300 });
    const kept = chainProcedures(finalizing);
    const first = await kept.getBlocksFromId!(blocksFrom(chain.idAt(0)), { peerId: 'p', penalize: () => undefined });
    const again = await kept.getBlocksFromId!(blocksFrom(chain.idAt(0)), { peerId: 'q', penalize: () => undefined });
    expect(first).toBeInstanceOf(EncodedPayload);
    expect(again).toBe(first);
    // The same bytes as the answer built afresh.
    expect((await call(kept.getBlocksFromId, blocksFrom(chain.idAt(0)))).answer).toEqual(
      (await call(procedures.getBlocksFromId, blocksFrom(chain.idAt(0)))).answer,
    );
    // Heights 201-303 reach past the finalized height 300: built each time.
    const open = await kept.getBlocksFromId!(blocksFrom(chain.idAt(200)), { peerId: 'p', penalize: () => undefined });
    expect(open).not.toBeInstanceOf(EncodedPayload);
  });

  it('keeps answers above the finalized height while the tip they were built at is the tip', async () => {
    let tip = chain.idAt(420);
    const asked: number[] = [];
    const source = Object.assign(Object.create(chain) as MemoryChain, {
      finalizedHeight: () => 300,
      tipId: () => tip,
      blocksBetween: (from: number, to: number) => {
        asked.push(from - 1);
        return chain.blocksBetween(from, to);
      },
    });
    const kept = chainProcedures(source);
    const context: P2pCallContext = { peerId: 'p', penalize: () => undefined };
    const first = await kept.getBlocksFromId!(blocksFrom(chain.idAt(350)), context);
    expect(first).toBeInstanceOf(EncodedPayload);
    expect(await kept.getBlocksFromId!(blocksFrom(chain.idAt(350)), context)).toBe(first);
    expect(await kept.getBlocksFromId!(blocksFrom(chain.idAt(250)), context)).toBe(
      await kept.getBlocksFromId!(blocksFrom(chain.idAt(250)), context),
    );
    expect(asked).toEqual([350, 250]);
    // The same bytes as the answer built afresh.
    expect((await call(kept.getBlocksFromId, blocksFrom(chain.idAt(350)))).answer).toEqual(
      (await call(procedures.getBlocksFromId, blocksFrom(chain.idAt(350)))).answer,
    );
    // Another tip: every answer above the finalized height is built again, once.
    tip = chain.idAt(419);
    const second = await kept.getBlocksFromId!(blocksFrom(chain.idAt(350)), context);
    expect(second).not.toBe(first);
    expect(await kept.getBlocksFromId!(blocksFrom(chain.idAt(350)), context)).toBe(second);
    expect(asked).toEqual([350, 250, 350]);
  });

  it('serves what a BlocksFromIdReader builds, keeps it when finalized, and builds the answer itself when the reader cannot', async () => {
    const finalizing = Object.assign(Object.create(chain) as MemoryChain, { finalizedHeight: () => 300 });
    const asked: number[] = [];
    const built = new EncodedPayload('AAEC');
    const reading = chainProcedures(finalizing, undefined, {
      blocksFromIdReader: async (blockId, height) => {
        expect(blockId).toEqual(chain.idAt(height));
        asked.push(height);
        return height === 100 ? undefined : built;
      },
    });
    const context: P2pCallContext = { peerId: 'p', penalize: () => undefined };
    // Finalized (heights 1-103): the reader's answer is served and kept.
    expect(await reading.getBlocksFromId!(blocksFrom(chain.idAt(0)), context)).toBe(built);
    expect(await reading.getBlocksFromId!(blocksFrom(chain.idAt(0)), context)).toBe(built);
    expect(asked).toEqual([0]);
    // Past the finalized height: asked every time.
    expect(await reading.getBlocksFromId!(blocksFrom(chain.idAt(250)), context)).toBe(built);
    expect(await reading.getBlocksFromId!(blocksFrom(chain.idAt(250)), context)).toBe(built);
    // No answer from the reader: the procedure's own, the same as without a reader.
    expect((await call(reading.getBlocksFromId, blocksFrom(chain.idAt(100)))).answer).toEqual(
      (await call(procedures.getBlocksFromId, blocksFrom(chain.idAt(100)))).answer,
    );
    expect(asked).toEqual([0, 250, 250, 100]);
    // An unknown ID never reaches the reader: the same error, no penalty.
    const unknown = await call(reading.getBlocksFromId, blocksFrom(Buffer.alloc(32, 7)));
    expect(unknown).toEqual({ error: `Block ${'07'.repeat(32)} does not exist`, penalties: [] });
    expect(asked).toHaveLength(4);
  });

  it('an unknown ID is an error answer without penalty; undecodable or invalid requests cost 100', async () => {
    const unknown = await call(procedures.getBlocksFromId, blocksFrom(Buffer.alloc(32, 7)));
    expect(unknown.error).toMatch(/does not exist/);
    expect(unknown.penalties).toEqual([]);
    expect((await call(procedures.getBlocksFromId, Buffer.from('ff', 'hex'))).penalties).toEqual([100]);
    expect((await call(procedures.getBlocksFromId, blocksFrom(Buffer.alloc(31)))).penalties).toEqual([100]);
    expect((await call(procedures.getBlocksFromId, undefined)).penalties).toEqual([100]);
  });
});

describe('getHighestCommonBlock', () => {
  const ask = (ids: Buffer[]) => codec.encode(schemas.getHighestCommonBlockRequestSchema, { ids });
  const idOf = (answer: Buffer | undefined) => codec.decode<{ id: Buffer }>(schemas.getHighestCommonBlockResponseSchema, answer!).id;

  it('answers the known ID of greatest height, in any order of the list', async () => {
    const { answer } = await call(
      procedures.getHighestCommonBlock,
      ask([chain.idAt(5), Buffer.alloc(32, 3), chain.idAt(300), chain.idAt(7)]),
    );
    expect(idOf(answer)).toEqual(chain.idAt(300));
  });

  it('answers 0a00 when nothing is known', async () => {
    const { answer, penalties } = await call(procedures.getHighestCommonBlock, ask([Buffer.alloc(32, 3)]));
    expect(answer!.toString('hex')).toBe('0a00');
    expect(penalties).toEqual([]);
  });

  it('undecodable: error only; empty list or wrong lengths: 100; duplicates: 100 but still answered', async () => {
    expect(await call(procedures.getHighestCommonBlock, Buffer.from('ff', 'hex'))).toMatchObject({ penalties: [] });
    expect((await call(procedures.getHighestCommonBlock, ask([]))).penalties).toEqual([100]);
    expect((await call(procedures.getHighestCommonBlock, ask([Buffer.alloc(16)]))).penalties).toEqual([100]);
    const duplicated = await call(procedures.getHighestCommonBlock, ask([chain.idAt(2), chain.idAt(2)]));
    expect(duplicated.penalties).toEqual([100]);
    expect(idOf(duplicated.answer)).toEqual(chain.idAt(2));
  });
});

describe('getTransactions', () => {
  const ask = (transactionIds: Buffer[]) => codec.encode(schemas.getTransactionsRequestSchema, { transactionIds });
  const transactionsOf = (answer: Buffer | undefined) =>
    codec.decode<{ transactions: Buffer[] }>(schemas.getTransactionsResponseSchema, answer!).transactions;

  it('without data: processable pool transactions; with IDs: the known ones', async () => {
    expect(transactionsOf((await call(procedures.getTransactions, undefined)).answer)).toEqual([txA, txB]);
    expect(transactionsOf((await call(procedures.getTransactions, ask([Buffer.alloc(32, 1), Buffer.alloc(32, 2)]))).answer)).toEqual([txA]);
  });

  it('an empty pool answers the empty encoding', async () => {
    const empty = chainProcedures(chain);
    expect((await call(empty.getTransactions, undefined)).answer).toEqual(Buffer.alloc(0));
  });

  it('duplicates or more than 100 IDs cost 100; undecodable data only fails', async () => {
    expect((await call(procedures.getTransactions, ask([Buffer.alloc(32, 1), Buffer.alloc(32, 1)]))).penalties).toEqual([100]);
    expect((await call(procedures.getTransactions, ask(Array.from({ length: 101 }, (_, i) => Buffer.alloc(32, i))))).penalties).toEqual([
      100,
    ]);
    expect((await call(procedures.getTransactions, Buffer.from('ff', 'hex'))).penalties).toEqual([]);
  });
});
