/**
 * Seeded randomness for tests that pick random moments or inputs: a failing run can be replayed
 * with the seed it printed.
 */
import { randomInt } from 'node:crypto';

/** Set it to a seed a run printed to replay that run. */
export const TEST_SEED_ENV = 'BASALT_TEST_SEED';

/** mulberry32: a small seeded PRNG (32 bits of state) giving numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of a test's random choices: BASALT_TEST_SEED when set, else a fresh one. It is
 * printed (and belongs in the test's title) so that a failure can be replayed.
 */
export function testSeed(label: string): number {
  const given = process.env[TEST_SEED_ENV];
  let seed: number;
  if (given === undefined || given.trim() === '') {
    seed = randomInt(2 ** 32 - 1);
  } else {
    seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new Error(`${TEST_SEED_ENV} must be an integer from 0 to 4294967295, got "${given}".`);
  }
  console.log(`${label}: random seed ${seed} (replay with ${TEST_SEED_ENV}=${seed})`);
  return seed;
}
