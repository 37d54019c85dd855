/**
 * Seed reveal validity and random seeds (LIP 0046; lisk-sdk framework/src/modules/random/utils.ts
 * isSeedValidInput / getRandomSeed and method.ts). Expected seeds were computed by hand (Python
 * hashlib): H(x) = sha256(x)[0..16), XOR bytewise.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidParamsError, NotFoundError } from '../../../../src/errors.js';
import {
  computeRandomSeed,
  isSeedRevealValidAgainst,
  RandomMethod,
  validatorRevealsStore,
  type ValidatorSeedReveal,
} from '../../../../src/modules/random/index.js';
import { ModuleHarness } from '../../../support/module-harness.js';

const H = (value: Buffer): Buffer => createHash('sha256').update(value).digest().subarray(0, 16);
const A = Buffer.alloc(20, 0xaa);
const B = Buffer.alloc(20, 0xbb);
const a = Buffer.alloc(16, 0x11);
const b = Buffer.alloc(16, 0x22);
const c = Buffer.alloc(16, 0x44);

function reveal(generatorAddress: Buffer, seedReveal: Buffer, height: number, valid: boolean): ValidatorSeedReveal {
  return { generatorAddress, seedReveal, height, valid };
}

describe('isSeedRevealValidAgainst', () => {
  const list = [reveal(A, H(a), 1, false), reveal(B, b, 2, false), reveal(A, a, 3, true)];

  it('a first reveal (no entry of the generator) is invalid for the flag, valid for the reward rule', () => {
    expect(isSeedRevealValidAgainst(Buffer.alloc(20, 0xcc), c, list)).toBe(false);
    expect(isSeedRevealValidAgainst(Buffer.alloc(20, 0xcc), c, list, false)).toBe(true);
    expect(isSeedRevealValidAgainst(A, c, [])).toBe(false);
  });

  it('a reveal hashing to the generator’s latest reveal is valid; to an older one it is not', () => {
    // Hand computed: H(0x11×16) = b8f12ea8c9a95d4b4641b03d9fa5a71a.
    expect(H(a).toString('hex')).toBe('b8f12ea8c9a95d4b4641b03d9fa5a71a');
    const preimage = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    const chain = [reveal(A, H(H(preimage)), 1, false), reveal(A, H(preimage), 5, false)];
    expect(isSeedRevealValidAgainst(A, preimage, chain)).toBe(true);
    // Revealing the layer after the older entry (i.e. re-using H(preimage)) is not valid.
    expect(isSeedRevealValidAgainst(A, H(preimage), chain)).toBe(false);
    // Latest entry of A is `a` at height 3; only its preimage would be valid.
    expect(isSeedRevealValidAgainst(A, a, list)).toBe(false);
    expect(isSeedRevealValidAgainst(A, a, list, false)).toBe(false);
  });

  it('a wrong reveal is invalid under both rules', () => {
    expect(isSeedRevealValidAgainst(B, c, list)).toBe(false);
    expect(isSeedRevealValidAgainst(B, c, list, false)).toBe(false);
  });
});

describe('computeRandomSeed', () => {
  // Heights 10, 11, 12; the reveal at 11 is not valid and never counts.
  const reveals = [reveal(A, a, 10, true), reveal(B, b, 11, false), reveal(A, c, 12, true)];

  it('XORs H(uint32be(height + n)) with the valid reveals of [height, height + n)', () => {
    expect(computeRandomSeed(10, 3, reveals).toString('hex')).toBe('d5c7ab54ec9b64f1c9b6d5a97ab4bb3e');
    expect(computeRandomSeed(11, 2, reveals).toString('hex')).toBe('c4d6ba45fd8a75e0d8a7c4b86ba5aa2f');
    expect(computeRandomSeed(12, 1, reveals).toString('hex')).toBe('c4d6ba45fd8a75e0d8a7c4b86ba5aa2f');
    expect(computeRandomSeed(10, 1, reveals).toString('hex')).toBe('281a27b18413a14c5e9d36bfb3727d7a');
    // A range reaching beyond the newest reveal, and an empty range: only the height hash and what falls inside.
    expect(computeRandomSeed(0, 12, reveals).toString('hex')).toBe('d33dfff77a9ba015592d92142062a22e');
    expect(computeRandomSeed(0, 10, reveals).toString('hex')).toBe('e084a105a7b7d599b8346d3cba5ac51b');
    expect(computeRandomSeed(12, 0, reveals).toString('hex')).toBe('c22ceee66b8ab104483c83053173b33f');
  });

  it('does not alias or modify the reveals', () => {
    const seed = computeRandomSeed(12, 1, reveals);
    seed.fill(0);
    expect(c).toEqual(Buffer.alloc(16, 0x44));
    expect(computeRandomSeed(12, 1, reveals).toString('hex')).toBe('c4d6ba45fd8a75e0d8a7c4b86ba5aa2f');
  });

  it('fails in lisk-sdk’s order: non-integer, negative, then height in the future', () => {
    expect(() => computeRandomSeed(1.5, 1, reveals)).toThrow(new InvalidParamsError('Height or number of seeds cannot be non integer.'));
    expect(() => computeRandomSeed(-1, 1.5, reveals)).toThrow('Height or number of seeds cannot be non integer.');
    expect(() => computeRandomSeed(-1, 1, reveals)).toThrow(new InvalidParamsError('Height or number of seeds cannot be negative.'));
    expect(() => computeRandomSeed(1, -1, reveals)).toThrow('Height or number of seeds cannot be negative.');
    expect(() => computeRandomSeed(13, 1, reveals)).toThrow(new InvalidParamsError('Height is in the future.'));
    expect(() => computeRandomSeed(0, 1, [])).toThrow('Height is in the future.');
    // height + n must be writable as a uint32 (lisk-sdk's intToBuffer throws before the scan).
    expect(() => computeRandomSeed(0xffff_ffff, 1, reveals)).toThrow(InvalidParamsError);
    expect(computeRandomSeed(12, 0xffff_fff3, reveals)).toHaveLength(16);
  });
});

describe('RandomMethod', () => {
  const method = new RandomMethod();
  const assets = (seedReveal?: Buffer) => ({
    getAsset: (module: string) => (module === 'random' && seedReveal ? Buffer.concat([Buffer.from([0x0a, 0x10]), seedReveal]) : undefined),
  });

  it('isSeedRevealValid applies the reward rule to the block asset', () => {
    const harness = new ModuleHarness();
    validatorRevealsStore.set(harness.state, Buffer.alloc(0), { validatorReveals: [reveal(A, H(a), 7, false)] });
    expect(method.isSeedRevealValid(harness, A, assets(a))).toBe(true);
    expect(method.isSeedRevealValid(harness, A, assets(b))).toBe(false);
    expect(method.isSeedRevealValid(harness, B, assets(b))).toBe(true);
    expect(() => method.isSeedRevealValid(harness, A, assets())).toThrow('Block asset is missing.');
  });

  it('getRandomBytes reads validatorReveals; both fail before genesis initialised the store', () => {
    const harness = new ModuleHarness();
    expect(() => method.getRandomBytes(harness, 0, 1)).toThrow(NotFoundError);
    expect(() => method.isSeedRevealValid(harness, A, assets(a))).toThrow(NotFoundError);
    validatorRevealsStore.set(harness.state, Buffer.alloc(0), {
      validatorReveals: [reveal(A, a, 10, true), reveal(B, b, 11, false), reveal(A, c, 12, true)],
    });
    expect(method.getRandomBytes(harness, 10, 3).toString('hex')).toBe('d5c7ab54ec9b64f1c9b6d5a97ab4bb3e');
    expect(() => method.getRandomBytes(harness, 20, 3)).toThrow('Height is in the future.');
  });
});
