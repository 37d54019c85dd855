/** Small SMT helpers: state keys (LIP 0040), the event root (LIP 0065), bitmap and key bit arithmetic. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/errors.js';
import { EMPTY_HASH } from '../../../src/merkle/hash.js';
import {
  InMemorySmtNodeStore,
  SparseMerkleTree,
  computeEventRoot,
  smtKeyFromStateKey,
  smtValueFromStateValue,
} from '../../../src/merkle/smt/index.js';
import { bitmapBit, bitmapHeight, commonPrefixBits, encodeBitmap, keyBit } from '../../../src/merkle/smt/key-bits.js';
import { referenceRoot, sha } from './smt-reference.js';

describe('state key format (LIP 0040)', () => {
  it('keeps the 6 prefix bytes and hashes the rest', () => {
    const raw = Buffer.from('8000000a0000' + 'ed629c34f72e276ba38be61b6f289f84627f2b81', 'hex');
    const key = smtKeyFromStateKey(raw);
    expect(key).toHaveLength(38);
    expect(key.subarray(0, 6).toString('hex')).toBe('8000000a0000');
    expect(key.subarray(6).equals(sha(raw.subarray(6)))).toBe(true);
    expect(smtKeyFromStateKey(raw.subarray(0, 6)).subarray(6).equals(EMPTY_HASH)).toBe(true);
    expect(() => smtKeyFromStateKey(Buffer.alloc(5))).toThrow(FormatError);
  });

  it('hashes values', () => {
    expect(smtValueFromStateValue(Buffer.from('0801', 'hex')).equals(sha(Buffer.from('0801', 'hex')))).toBe(true);
  });
});

describe('event root (LIP 0065)', () => {
  it('is EMPTY_HASH without events and the root of the 12-byte-key tree otherwise', () => {
    expect(computeEventRoot([]).equals(EMPTY_HASH)).toBe(true);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.uint8Array({ minLength: 12, maxLength: 12 }), {
          minLength: 1,
          maxLength: 30,
          selector: (k) => Buffer.from(k).toString('hex'),
        }),
        (keys) => {
          const leaves = keys.map((key, i) => ({ key: Buffer.from(key), value: sha(Buffer.from([i])) }));
          const model = new Map(leaves.map(({ key, value }) => [key.toString('hex'), value]));
          expect(computeEventRoot(leaves).equals(referenceRoot(model))).toBe(true);
          const tree = new SparseMerkleTree(new InMemorySmtNodeStore(), 12);
          expect(tree.updateEntries(Buffer.alloc(0), leaves).root.equals(computeEventRoot(leaves))).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('rejects keys of another length', () => {
    expect(() => computeEventRoot([{ key: Buffer.alloc(32), value: Buffer.alloc(32) }])).toThrow(FormatError);
  });
});

describe('key and bitmap bits (LIP 0039)', () => {
  it('reads key bits most significant first', () => {
    const key = Buffer.from('8001', 'hex');
    expect([0, 1, 7, 8, 15].map((i) => keyBit(key, i))).toEqual([1, 0, 0, 0, 1]);
    expect(commonPrefixBits(Buffer.from('f0f0', 'hex'), Buffer.from('f0f1', 'hex'))).toBe(15);
    expect(commonPrefixBits(Buffer.from('f0', 'hex'), Buffer.from('70', 'hex'))).toBe(0);
    expect(commonPrefixBits(Buffer.from('abcd', 'hex'), Buffer.from('abcd', 'hex'))).toBe(16);
  });

  it('encodes bitmaps with the root level as the lowest bit', () => {
    // The event-root example of state-and-events.md: depth 0 and depth 91 set → 12 bytes 08 00 .. 01.
    const flags = Array.from({ length: 92 }, (_, d) => (d === 0 || d === 91 ? 1 : 0));
    expect(encodeBitmap(flags).toString('hex')).toBe('080000000000000000000001');
    expect(encodeBitmap([]).length).toBe(0);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, 1), { maxLength: 40 }), (bits) => {
        const flags = [...bits, 1]; // the deepest sibling is never empty
        const bitmap = encodeBitmap(flags);
        expect(bitmap[0]).not.toBe(0);
        expect(bitmapHeight(bitmap)).toBe(flags.length);
        flags.forEach((flag, depth) => expect(bitmapBit(bitmap, depth)).toBe(flag));
      }),
    );
    expect(bitmapHeight(Buffer.from('0001', 'hex'))).toBe(1);
  });
});
