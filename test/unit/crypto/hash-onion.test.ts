import { describe, expect, it } from 'vitest';
import { generateHashOnion, generateHashOnionSeed, hashOnionStep, isValidSeedRevealSuccessor } from '../../../src/crypto/index.js';
import { InvalidParamsError } from '../../../src/errors.js';

const SEED = Buffer.from('00112233445566778899aabbccddeeff', 'hex');

describe('hash onion (LIP 0046)', () => {
  it('reproduces the spec example (count 10, distance 5)', () => {
    expect(generateHashOnion(SEED, 10, 5).map((x) => x.toString('hex'))).toEqual([
      '82b1b3e46a145d137dc78cdd2e6a897b',
      '6888ea66fc663023490329db8924f0b1',
      '00112233445566778899aabbccddeeff',
    ]);
  });

  it('gives the reveals of the spec (use-count c → H^(10−c)(seed)) and their successor rule', () => {
    const layers = generateHashOnion(SEED, 10, 1); // [h10, h9, …, h0]
    expect(layers[1]!.toString('hex')).toBe('ae3c51a41a6681e56464cc497aefd3da');
    expect(layers[9]!.toString('hex')).toBe('a8faed6abbf35c12a4b26e40f6feb19d');
    for (let c = 1; c <= 10; c++) {
      expect(isValidSeedRevealSuccessor(layers[c - 1]!, layers[c]!)).toBe(true);
      expect(hashOnionStep(layers[c]!).equals(layers[c - 1]!)).toBe(true);
    }
    expect(isValidSeedRevealSuccessor(layers[2]!, layers[1]!)).toBe(false);
    expect(isValidSeedRevealSuccessor(Buffer.alloc(15), layers[1]!)).toBe(false);
  });

  it('rejects bad counts and distances with the SDK messages', () => {
    expect(() => generateHashOnion(SEED, 5, 10)).toThrow('Invalid count or distance. Count must be greater than distance');
    expect(() => generateHashOnion(SEED, 10, 3)).toThrow('Invalid count. Count must be multiple of distance');
    expect(() => generateHashOnion(SEED, 10, 0)).toThrow(InvalidParamsError);
    expect(() => generateHashOnion(SEED, 2.5, 0.5)).toThrow(InvalidParamsError);
  });

  it('makes random 16-byte seeds', () => {
    const seed = generateHashOnionSeed();
    expect(seed).toHaveLength(16);
    expect(seed.equals(generateHashOnionSeed())).toBe(false);
  });
});
