/**
 * The one-field readers of stored v3 headers and transactions give what a full decode gives, and
 * refuse what a full decode refuses for its structure.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import { v3HeaderGeneratorKey, v3TransactionSenderKey } from '../../../src/migration/v3/v3-record-fields.js';
import { v3BlockHeaderSchema, v3TransactionSchema } from '../../../src/migration/v3/v3-schemas.js';
import { syntheticPublicKey, v3Transaction } from '../../support/v3-database-writer.js';

const header = {
  version: 2,
  timestamp: 1_700_000_000,
  height: 300_000,
  previousBlockID: Buffer.alloc(32, 3),
  transactionRoot: Buffer.alloc(32, 4),
  generatorPublicKey: syntheticPublicKey('generator'),
  reward: 500_000_000n,
  asset: Buffer.alloc(70, 5),
  signature: Buffer.alloc(64, 6),
};

describe('reading one field of a stored v3 record', () => {
  it('finds the generator key of a header and the sender key of a transaction', () => {
    expect(v3HeaderGeneratorKey(codec.encode(v3BlockHeaderSchema, header))).toEqual(header.generatorPublicKey);
    // The genesis header has an empty previousBlockID.
    const genesis = codec.encode(v3BlockHeaderSchema, { ...header, height: 0, previousBlockID: Buffer.alloc(0) });
    expect(v3HeaderGeneratorKey(genesis)).toEqual(header.generatorPublicKey);
    const sender = syntheticPublicKey('sender');
    for (const signatures of [[], [Buffer.alloc(64, 1)], [Buffer.alloc(64, 1), Buffer.alloc(0), Buffer.alloc(64, 2)]]) {
      const transaction = codec.encode(v3TransactionSchema, { ...v3Transaction(sender, 3n, Buffer.alloc(40, 9)), signatures });
      expect(v3TransactionSenderKey(transaction)).toEqual(sender);
    }
  });

  it('refuses truncated, reordered and trailing bytes', () => {
    const encoded = codec.encode(v3BlockHeaderSchema, header);
    expect(() => v3HeaderGeneratorKey(encoded.subarray(0, encoded.length - 1))).toThrow(/past the end/);
    expect(() => v3HeaderGeneratorKey(Buffer.concat([encoded, Buffer.from([0x50, 0x01])]))).toThrow(/trailing/);
    expect(() => v3HeaderGeneratorKey(encoded.subarray(2))).toThrow(/missing or out of order/);
    expect(() => v3HeaderGeneratorKey(Buffer.alloc(0))).toThrow(/ends inside a varint/);
    const transaction = codec.encode(v3TransactionSchema, v3Transaction(syntheticPublicKey('s'), 1n));
    expect(() => v3TransactionSenderKey(Buffer.concat([transaction, Buffer.from([0x40, 0x01])]))).toThrow(/unexpected field/);
  });
});
