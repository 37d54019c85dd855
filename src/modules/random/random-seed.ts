/**
 * Random seed derivation (LIP 0046 getRandomBytes; lisk-sdk random/utils.ts
 * getRandomSeed), with lisk-sdk's error conditions in its order.
 */
import { sha256 } from '../../crypto/index.js';
import { InvalidParamsError } from '../../errors.js';
import { SEED_LENGTH } from './constants.js';
import type { ValidatorSeedReveal } from './stores.js';

const MAX_UINT32 = 0xffff_ffff;

/**
 * XOR of H(uint32be(height + numberOfSeeds))[0..16) and every *valid* reveal with a height in
 * [height, height + numberOfSeeds). Throws when an input is not a non-negative integer, when
 * height + numberOfSeeds does not fit in a uint32 (lisk-sdk fails writing it), and when no reveal
 * has a height ≥ `height` ("Height is in the future.").
 */
export function computeRandomSeed(height: number, numberOfSeeds: number, reveals: readonly ValidatorSeedReveal[]): Buffer {
  if (!Number.isInteger(height) || !Number.isInteger(numberOfSeeds)) {
    throw new InvalidParamsError('Height or number of seeds cannot be non integer.');
  }
  if (height < 0 || numberOfSeeds < 0) {
    throw new InvalidParamsError('Height or number of seeds cannot be negative.');
  }
  const end = height + numberOfSeeds;
  if (end > MAX_UINT32) {
    throw new InvalidParamsError(`Height plus number of seeds must fit in a uint32, got ${end}.`);
  }
  const endBytes = Buffer.alloc(4);
  endBytes.writeUInt32BE(end);
  // A fresh copy: the XOR below writes into it.
  const seed = Buffer.from(sha256(endBytes).subarray(0, SEED_LENGTH));

  let hasRevealAtOrAfterHeight = false;
  for (const reveal of reveals) {
    if (reveal.height < height) continue;
    hasRevealAtOrAfterHeight = true;
    if (reveal.height < end && reveal.valid) {
      for (let i = 0; i < SEED_LENGTH; i += 1) seed[i] = (seed[i] as number) ^ (reveal.seedReveal[i] as number);
    }
  }
  if (!hasRevealAtOrAfterHeight) {
    throw new InvalidParamsError('Height is in the future.');
  }
  return seed;
}
