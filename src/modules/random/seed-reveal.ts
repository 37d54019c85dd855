/**
 * The seed reveal validity rule (LIP 0046; lisk-sdk random/utils.ts
 * isSeedValidInput): a reveal continues its generator's hash onion when it hashes to the
 * generator's most recent reveal in validatorReveals.
 */
import { isValidSeedRevealSuccessor } from '../../crypto/index.js';
import type { ValidatorSeedReveal } from './stores.js';

/**
 * Whether `seedReveal` by `generatorAddress` is valid against `reveals` (ascending heights):
 * valid ⇔ H(seedReveal)[0..16) equals the generator's latest reveal. When the generator has no
 * reveal in the list the answer is `!previousSeedRequired`: false for the `valid` flag stored
 * with each new reveal, true for the reward rule (RandomMethod.isSeedRevealValid).
 */
export function isSeedRevealValidAgainst(
  generatorAddress: Buffer,
  seedReveal: Buffer,
  reveals: readonly ValidatorSeedReveal[],
  previousSeedRequired = true,
): boolean {
  // Entries are in ascending height order, so the last match is the generator's latest reveal.
  for (let i = reveals.length - 1; i >= 0; i -= 1) {
    const reveal = reveals[i] as ValidatorSeedReveal;
    if (!reveal.generatorAddress.equals(generatorAddress)) continue;
    return isValidSeedRevealSuccessor(reveal.seedReveal, seedReveal);
  }
  return !previousSeedRequired;
}
