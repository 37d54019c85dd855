/**
 * Hash onions for the random module's seed reveals (LIP 0046; docs/protocol/random.md): h₀ = seed,
 * hᵢ = H(hᵢ₋₁)[0..16). A validator reveals h_count first and walks back towards the seed, so each
 * reveal r satisfies H(r)[0..16) = previous reveal.
 */
import { InvalidParamsError } from '../errors.js';
import { randomBytes } from './random.js';
import { sha256 } from './sha256.js';

export const HASH_ONION_SEED_LENGTH = 16;
/** Defaults of the SDK's `utils.hashOnion` and of `lisk-core hash-onion`. */
export const DEFAULT_HASH_ONION_COUNT = 1_000_000;
export const DEFAULT_HASH_ONION_DISTANCE = 1_000;

/** One onion layer: H(value)[0..16). */
export function hashOnionStep(value: Uint8Array): Buffer {
  return sha256(value).subarray(0, HASH_ONION_SEED_LENGTH);
}

/**
 * The checkpoints [h_count, h_(count−distance), …, h_distance, h₀ = seed] (count/distance + 1
 * values; SDK `utils.hashOnion`). Throws InvalidParamsError with the SDK's messages when count
 * is below distance or not a multiple of it.
 */
export function generateHashOnion(
  seed: Uint8Array,
  count: number = DEFAULT_HASH_ONION_COUNT,
  distance: number = DEFAULT_HASH_ONION_DISTANCE,
): Buffer[] {
  if (count < distance) {
    throw new InvalidParamsError('Invalid count or distance. Count must be greater than distance');
  }
  if (count % distance !== 0) {
    throw new InvalidParamsError('Invalid count. Count must be multiple of distance');
  }
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(distance) || distance < 1) {
    throw new InvalidParamsError('Invalid count or distance. Both must be positive integers');
  }
  const checkpoints: Buffer[] = [Buffer.from(seed)];
  let current: Buffer = checkpoints[0]!;
  for (let i = 1; i <= count; i++) {
    current = hashOnionStep(current);
    if (i % distance === 0) checkpoints.push(current);
  }
  return checkpoints.reverse();
}

/** True when `nextReveal` is the layer just inside `previousReveal`: H(next)[0..16) = previous. */
export function isValidSeedRevealSuccessor(previousReveal: Uint8Array, nextReveal: Uint8Array): boolean {
  return previousReveal.length === HASH_ONION_SEED_LENGTH && hashOnionStep(nextReveal).equals(previousReveal);
}

/** A fresh random 16-byte onion seed (SDK: H(64 random bytes)[0..16)). */
export function generateHashOnionSeed(): Buffer {
  return hashOnionStep(randomBytes(64));
}
