/**
 * Property tests: bytes from a peer (blocks, headers, transactions) either decode to an object
 * whose canonical encoding is those very bytes, or raise DecodeError — never another exception
 * (docs/protocol/codec.md). Inputs: a real dev-chain block with random bytes changed, cut or
 * appended, and plain random bytes.
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

/** Decodes; on success the input must be canonical (the codec rejects anything else). */
function decodesCanonicallyOrThrowsDecodeError(decode: Decoder, bytes: Uint8Array): void {
  let decoded: { bytes: Buffer } | undefined;
  let failure: unknown;
  try {
    decoded = decode(bytes);
  } catch (error) {
    failure = error;
  }
  if (decoded) expect(decoded.bytes.equals(Buffer.from(bytes))).toBe(true);
  else expect(failure).toBeInstanceOf(DecodeError);
}

const mutation = (length: number) =>
  fc.array(fc.record({ at: fc.nat({ max: length - 1 }), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 });

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
