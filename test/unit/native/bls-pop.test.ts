/**
 * The addon's PopVerify (native/src/bls12_381) against the bigint implementation with blst's
 * decoding (src/crypto/bls-pop.ts): the LIP 0038 vectors, proofs made by popProve for random
 * keys, every kind of malformed or out-of-group point, random encodings and random corruptions
 * of valid pairs; uncompressed encodings stay on the bigint path.
 * The two must agree on every input.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PublicKey, Signature } from '@chainsafe/blst';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { blsPublicKeyFromSecretKey, popProve, popVerify, popVerifyBigint, sha256 } from '../../../src/crypto/index.js';
import { nativePopVerify } from '../../../src/native/index.js';
import { fixturePath } from '../../support/fixtures.js';
import { Random, nativeMissing } from './native-test-support.js';

const native = nativePopVerify as (publicKey: Uint8Array, proof: Uint8Array) => boolean;
const hex = (value: string) => Buffer.from(value.replace(/^0x/, ''), 'hex');

/** Asserts native and bigint agree on (key, proof) and returns their answer. */
function agreed(publicKey: Uint8Array, proof: Uint8Array, context: string): boolean {
  const expected = popVerifyBigint(publicKey, proof);
  expect(native(publicKey, proof), `${context}: ${Buffer.from(publicKey).toString('hex')} / ${Buffer.from(proof).toString('hex')}`).toBe(
    expected,
  );
  expect(popVerify(publicKey, proof), context).toBe(expected);
  return expected;
}

/** Keys and proofs made here: secret keys from a hash of the index. */
const pairs = Array.from({ length: 6 }, (_, i) => {
  const secretKey = sha256(Buffer.from(`basalt-test:pop:${i}`));
  return { publicKey: blsPublicKeyFromSecretKey(secretKey), proof: popProve(secretKey) };
});

/** Steps the last byte of x (byte 47 of a key or proof) until `accept` likes the encoding. */
function searchX(start: Buffer, accept: (bytes: Buffer) => boolean): Buffer {
  const bytes = Buffer.from(start);
  for (let step = 0; step < 100_000; step++) {
    bytes.writeUInt16BE((bytes.readUInt16BE(46) + 1) & 0xffff, 46);
    if (accept(bytes)) return bytes;
  }
  throw new Error('no such encoding found');
}

const decodes = (decode: () => unknown): boolean => {
  try {
    decode();
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(nativeMissing('bls pop'))('native popVerify (BLS12-381 in Rust) against the bigint implementation', () => {
  it('answers the LIP 0038 pop_verify vectors', () => {
    const dir = fixturePath('crypto/bls_specs/pop_verify');
    const files = readdirSync(dir).filter((name) => name.endsWith('.yml'));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const name of files) {
      const { input, output } = parse(readFileSync(join(dir, name), 'utf8')) as { input: { pk: string; proof: string }; output: boolean };
      expect(agreed(hex(input.pk), hex(input.proof), name), name).toBe(output);
    }
  });

  it('accepts proofs made by popProve and rejects them for any other key', () => {
    for (const [i, { publicKey, proof }] of pairs.entries()) {
      expect(agreed(publicKey, proof, `pair ${i}`)).toBe(true);
      const other = pairs[(i + 1) % pairs.length]!;
      expect(agreed(other.publicKey, proof, `key ${i + 1} with proof ${i}`)).toBe(false);
      expect(agreed(publicKey, other.proof, `key ${i} with proof ${i + 1}`)).toBe(false);
    }
    // Arguments swapped, and views into a larger buffer at an odd offset.
    const { publicKey, proof } = pairs[0]!;
    expect(agreed(proof, publicKey, 'swapped arguments')).toBe(false);
    const backing = Buffer.alloc(48 + 96 + 3);
    publicKey.copy(backing, 1);
    proof.copy(backing, 50);
    expect(native(new Uint8Array(backing.buffer, backing.byteOffset + 1, 48), backing.subarray(50, 146))).toBe(true);
  });

  it('leaves uncompressed encodings, which the addon does not take, to the bigint path', () => {
    const { publicKey, proof } = pairs[2]!;
    const uncompressedKey = Buffer.from(PublicKey.fromBytes(publicKey).toBytes(false));
    const uncompressedProof = Buffer.from(Signature.fromBytes(proof).toBytes(false));
    expect(native(publicKey, uncompressedProof)).toBe(false);
    expect(popVerify(publicKey, uncompressedProof)).toBe(popVerifyBigint(publicKey, uncompressedProof));
    expect(popVerify(uncompressedKey, proof)).toBe(popVerifyBigint(uncompressedKey, proof));
  });

  it('rejects malformed, off-curve and out-of-group points exactly as blst-based checking does', () => {
    const { publicKey, proof } = pairs[1]!;
    const infinityKey = Buffer.alloc(48);
    infinityKey[0] = 0xc0;
    const infinityProof = Buffer.alloc(96);
    infinityProof[0] = 0xc0;
    const withFirstByte = (bytes: Buffer, first: number) => Buffer.concat([Buffer.of(first), bytes.subarray(1)]);
    const modulus = hex('1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab');
    const keyXIsP = withFirstByte(modulus, modulus[0]! | 0x80);
    const proofXIsP = Buffer.concat([keyXIsP, proof.subarray(48)]);
    const keyOffCurve = searchX(publicKey, (bytes) => !decodes(() => PublicKey.fromBytes(bytes)));
    const keyOutsideG1 = searchX(
      publicKey,
      (bytes) => decodes(() => PublicKey.fromBytes(bytes)) && !decodes(() => PublicKey.fromBytes(bytes).keyValidate()),
    );
    const proofOffCurve = searchX(proof, (bytes) => !decodes(() => Signature.fromBytes(bytes)));
    const proofOutsideG2 = searchX(
      proof,
      (bytes) => decodes(() => Signature.fromBytes(bytes)) && !decodes(() => Signature.fromBytes(bytes, true)),
    );
    const cases: [string, Buffer, Buffer][] = [
      ['identity key', infinityKey, proof],
      ['identity proof', publicKey, infinityProof],
      ['identity key with the sort bit', withFirstByte(infinityKey, 0xe0), proof],
      ['identity proof with the sort bit', publicKey, withFirstByte(infinityProof, 0xe0)],
      ['identity flag on a key with x', withFirstByte(publicKey, publicKey[0]! | 0x40), proof],
      ['key without the compression flag', withFirstByte(publicKey, publicKey[0]! & 0x7f), proof],
      ['proof without the compression flag', publicKey, withFirstByte(proof, proof[0]! & 0x7f)],
      ['negated key (sort bit flipped)', withFirstByte(publicKey, publicKey[0]! ^ 0x20), proof],
      ['negated proof (sort bit flipped)', publicKey, withFirstByte(proof, proof[0]! ^ 0x20)],
      ['key x = p', keyXIsP, proof],
      ['proof x.c1 = p', publicKey, proofXIsP],
      ['proof x.c0 = p', publicKey, Buffer.concat([proof.subarray(0, 48), modulus])],
      ['all-zero key', Buffer.alloc(48), proof],
      ['all-ones key and proof', Buffer.alloc(48, 0xff), Buffer.alloc(96, 0xff)],
      ['key off the curve', keyOffCurve, proof],
      ['key on E1 outside G1', keyOutsideG1, proof],
      ['proof off the curve', publicKey, proofOffCurve],
      ['proof on E2 outside G2', publicKey, proofOutsideG2],
      ['short key', publicKey.subarray(0, 47), proof],
      ['short proof', publicKey, proof.subarray(0, 95)],
      ['empty', Buffer.alloc(0), Buffer.alloc(0)],
    ];
    for (const [name, key, candidate] of cases) expect(agreed(key, candidate, name), name).toBe(false);
  });

  it('agrees with the bigint implementation on random encodings (compression flag set, other flags random)', () => {
    const encoding = (length: number) =>
      fc.tuple(fc.uint8Array({ minLength: length, maxLength: length }), fc.integer({ min: 0, max: 3 })).map(([bytes, flags]) => {
        const out = Buffer.from(bytes);
        out[0] = 0x80 | (flags << 5) | (out[0]! & 0x1f);
        return out;
      });
    fc.assert(
      fc.property(encoding(48), encoding(96), (publicKey, proof) => {
        agreed(publicKey, proof, 'random encodings');
      }),
      { numRuns: 200, seed: 0x0b15 },
    );
  });

  it('agrees with the bigint implementation on random corruptions of valid pairs', () => {
    const random = new Random(0x5eed_b15);
    for (let round = 0; round < 48; round++) {
      const pair = random.pick(pairs);
      const key = Buffer.from(pair.publicKey);
      const proof = Buffer.from(pair.proof);
      const target = random.int(2) === 0 ? key : proof;
      switch (random.int(4)) {
        case 0: // one bit anywhere, flags included
          target[random.int(target.length)]! ^= 1 << random.int(8);
          break;
        case 1: // one bit of the flag byte
          target[0]! ^= 0x20 << random.int(3);
          break;
        case 2: // a random byte
          target[random.int(target.length)] = random.int(256);
          break;
        default: // random x behind valid flags
          random.bytes(target.length).copy(target, 1, 1);
      }
      agreed(key, proof, `round ${round} (seed ${random.seed})`);
    }
  });
});
