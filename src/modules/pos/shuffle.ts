/**
 * Validator order within a round (LIP 0057 "Shuffling"; lisk-sdk 6.1
 * modules/utils/shuffleValidatorList.ts): ascending by sha256(randomSeed ‖ address), ties by
 * address. Verified against test/fixtures/pos/uniformly_shuffled_validator_list.json.
 */
import { sha256 } from '../../crypto/index.js';

/** A new array of the validators in round order; the input is left as it is. */
export function shuffleValidatorList<T extends { readonly address: Buffer }>(randomSeed: Buffer, validators: readonly T[]): T[] {
  const keyed = validators.map((validator) => ({
    validator,
    roundHash: sha256(Buffer.concat([randomSeed, validator.address])),
  }));
  keyed.sort((a, b) => a.roundHash.compare(b.roundHash) || a.validator.address.compare(b.validator.address));
  return keyed.map((entry) => entry.validator);
}
