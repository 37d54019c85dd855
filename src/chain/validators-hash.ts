import { codec, objectArrayField, objectSchema, type Schema } from '../codec/index.js';
import { sha256 } from '../crypto/index.js';

/**
 * The input of the validators hash (LIP 0058 for BFT, LIP 0045 for a sidechain's validators).
 * The interoperability module also answers getChainValidators with this schema, so it carries the
 * `$id` that lisk-sdk's interoperability module publishes in its metadata; the `$id` does not
 * take part in the encoding.
 */
export const validatorsHashInputSchema: Schema = objectSchema('/modules/interoperability/validatorsHashInput', {
  activeValidators: objectArrayField(1, {
    blsKey: { dataType: 'bytes', fieldNumber: 1 },
    bftWeight: { dataType: 'uint64', fieldNumber: 2 },
  }),
  certificateThreshold: { dataType: 'uint64', fieldNumber: 2 },
});

/**
 * validatorsHash (LIP 0058; engine/bft/utils.ts computeValidatorsHash): the hash of the validators
 * with positive BFT weight, sorted by BLS key bytewise, together with the certificate threshold.
 */
export function computeValidatorsHash(validators: readonly { blsKey: Buffer; bftWeight: bigint }[], certificateThreshold: bigint): Buffer {
  const activeValidators = validators
    .filter((validator) => validator.bftWeight > 0n)
    .map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight }))
    .sort((a, b) => a.blsKey.compare(b.blsKey));
  return hashValidatorsHashInput(activeValidators, certificateThreshold);
}

/** The hash of validators taken as given: the caller has already kept the active ones and sorted them. */
export function hashValidatorsHashInput(
  activeValidators: readonly { blsKey: Buffer; bftWeight: bigint }[],
  certificateThreshold: bigint,
): Buffer {
  return sha256(codec.encode(validatorsHashInputSchema, { activeValidators, certificateThreshold }));
}
