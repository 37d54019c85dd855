/**
 * Property tests: bytes from a peer (blocks, headers, transactions) either decode, or raise
 * DecodeError — never another exception (docs/protocol/codec.md). What decodes has a canonical
 * encoding that decodes to itself; the input itself may differ from it only by the quirks lisk-sdk's
 * decoder tolerates (an array key whose wire type is wrong, say: only its field number is compared),
 * which the codec's own tests pin down. Inputs: a real dev-chain block with random bytes changed,
 * cut or appended, and plain random bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockHeader } from '../../../src/chain/block-header.js';
import { Block } from '../../../src/chain/block.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { DecodeError } from '../../../src/errors.js';
import { loadBinaryFixture } from '../../support/fixtures.js';

const RUNS = 400;

// Height 2 of the dev chain: 11 transactions of 4 kinds, one asset.
const blockHex = (
  JSON.parse(loadBinaryFixture('chains/dev/blocks.ndjson').toString('utf8').split('\n', 3)[2] as string) as { blockHex: string }
).blockHex;
const block = Block.fromBytes(Buffer.from(blockHex, 'hex'));

type Decoder = (bytes: Uint8Array) => { bytes: Buffer };
const decoders: [string, Decoder, Buffer][] = [
  ['Block', (bytes) => Block.fromBytes(bytes), block.bytes],
  ['BlockHeader', (bytes) => BlockHeader.fromBytes(bytes), block.header.bytes],
  ['Transaction', (bytes) => Transaction.fromBytes(bytes), (block.transactions[0] as Transaction).bytes],
];

/** Decodes; on success the canonical encoding must decode back to itself. */
function decodesCanonicallyOrThrowsDecodeError(decode: Decoder, bytes: Uint8Array): void {
  let decoded: { bytes: Buffer } | undefined;
  let failure: unknown;
  try {
    decoded = decode(bytes);
  } catch (error) {
    failure = error;
  }
  if (decoded) expect(decode(decoded.bytes).bytes.equals(decoded.bytes)).toBe(true);
  else expect(failure).toBeInstanceOf(DecodeError);
}

const mutation = (length: number) =>
  fc.array(fc.record({ at: fc.nat({ max: length - 1 }), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 });

describe('Transaction.fromBytes on a tolerated non-canonical encoding', () => {
  it('takes a signatures key with wire type 0 as lisk-sdk does, and hashes the canonical bytes', () => {
    const valid = (block.transactions[0] as Transaction).bytes;
    const keyAt = valid.lastIndexOf(0x3a, valid.length - 66);
    const bytes = Buffer.from(valid);
    bytes[keyAt] = 0x38; // field 7, wire type 0 instead of 2
    const decoded = Transaction.fromBytes(bytes);
    expect(decoded.bytes.equals(valid)).toBe(true);
    expect(decoded.id.equals((block.transactions[0] as Transaction).id)).toBe(true);
  });
});

describe.each(decoders)('%s.fromBytes on damaged input', (_name, decode, valid) => {
  it('changed bytes', () => {
    fc.assert(
      fc.property(mutation(valid.length), (changes) => {
        const bytes = Buffer.from(valid);
        for (const { at, value } of changes) bytes[at] = value;
        decodesCanonicallyOrThrowsDecodeError(decode, bytes);
      }),
      { numRuns: RUNS },
    );
  });

  it('cut and extended input', () => {
    fc.assert(
      fc.property(fc.nat({ max: valid.length }), fc.uint8Array({ maxLength: 8 }), (cut, tail) => {
        decodesCanonicallyOrThrowsDecodeError(decode, Buffer.concat([valid.subarray(0, cut), tail]));
      }),
      { numRuns: RUNS },
    );
  });

  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => decodesCanonicallyOrThrowsDecodeError(decode, bytes)),
      { numRuns: RUNS },
    );
  });
});
