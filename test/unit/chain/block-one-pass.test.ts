/**
 * Block.fromBytes reads a canonical block in one pass (transactions and assets as nested objects,
 * codec.decodeCanonicalViews) and any other input in two steps (the list of encodings, then each
 * one). Property: on valid, damaged, cut and extended blocks it has exactly the outcome of the two
 * steps alone, values and DecodeError messages alike, including the inputs where reading the
 * transactions as nested objects would differ (an empty transaction element).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockAssets } from '../../../src/chain/block-assets.js';
import { BlockHeader } from '../../../src/chain/block-header.js';
import { Block } from '../../../src/chain/block.js';
import { blockSchema } from '../../../src/chain/schemas.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { codec } from '../../../src/codec/index.js';
import { DecodeError } from '../../../src/errors.js';
import { loadBinaryFixture } from '../../support/fixtures.js';

const RUNS = 300;

/** The two steps alone: the list of encodings, then each header, transaction and asset. */
function twoSteps(bytes: Uint8Array): Block {
  const encoded = codec.decodeViews<{ header: Buffer; transactions: Buffer[]; assets: Buffer[] }>(blockSchema, Buffer.from(bytes));
  return new Block(
    BlockHeader.fromBytes(encoded.header),
    encoded.transactions.map((tx) => Transaction.fromSharedBytes(tx)),
    BlockAssets.fromSharedBytes(encoded.assets),
  );
}

type Outcome = { json: unknown; bytes: string } | { error: string };

function outcome(decode: (bytes: Uint8Array) => Block, bytes: Uint8Array): Outcome {
  try {
    const block = decode(bytes);
    return { json: block.toJSON(), bytes: block.bytes.toString('hex') };
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return { error: error.message };
  }
}

const expectSameOutcome = (bytes: Uint8Array): void => {
  expect(outcome(Block.fromBytes, bytes), Buffer.from(bytes).toString('hex')).toStrictEqual(outcome(twoSteps, bytes));
};

// Height 2 of the dev chain: 11 transactions of 4 kinds, one asset.
const valid = Buffer.from(
  (JSON.parse(loadBinaryFixture('chains/dev/blocks.ndjson').toString('utf8').split('\n', 3)[2] as string) as { blockHex: string }).blockHex,
  'hex',
);

describe('Block.fromBytes: one pass = two steps', () => {
  it('the valid block', () => {
    expectSameOutcome(valid);
    expect(Block.fromBytes(valid).bytes.equals(valid)).toBe(true);
  });

  it('changed bytes', () => {
    const changes = fc.array(fc.record({ at: fc.nat({ max: valid.length - 1 }), value: fc.integer({ min: 0, max: 255 }) }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(changes, (list) => {
        const bytes = Buffer.from(valid);
        for (const { at, value } of list) bytes[at] = value;
        expectSameOutcome(bytes);
      }),
      { numRuns: RUNS },
    );
  });

  it('cut and extended input', () => {
    fc.assert(
      fc.property(fc.nat({ max: valid.length }), fc.uint8Array({ maxLength: 8 }), (cut, tail) => {
        expectSameOutcome(Buffer.concat([valid.subarray(0, cut), tail]));
      }),
      { numRuns: RUNS },
    );
  });

  it('an empty transaction element is a DecodeError, not a dropped element', () => {
    const header = Block.fromBytes(valid).header.bytes;
    const bytes = codec.encode(blockSchema, { header, transactions: [Buffer.alloc(0)], assets: [] });
    expectSameOutcome(bytes);
    expect(() => Block.fromBytes(bytes)).toThrow(DecodeError);
  });

  it('a transaction with a non-ASCII module name (left to the general decoder) decodes the same way', () => {
    const block = Block.fromBytes(valid);
    const tx = block.transactions[0] as Transaction;
    const renamed = new Transaction({ ...tx, module: 'tökén', signatures: tx.signatures });
    const bytes = codec.encode(blockSchema, { header: block.header.bytes, transactions: [renamed.bytes], assets: [] });
    expectSameOutcome(bytes);
    expect(Block.fromBytes(bytes).transactions[0]?.module).toBe('tökén');
  });
});
