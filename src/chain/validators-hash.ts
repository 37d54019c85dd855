import { codec, type Schema } from '../codec/index.js';
import { sha256 } from '../crypto/index.js';

const validatorsHashInputSchema: Schema = {
  $id: '/modules/bft/validatorsHashInput',
  type: 'object',
  required: ['activeValidators', 'certificateThreshold'],
  properties: {
    activeValidators: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['blsKey', 'bftWeight'],
        properties: {
          blsKey: { dataType: 'bytes', fieldNumber: 1 },
          bftWeight: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
    certificateThreshold: { dataType: 'uint64', fieldNumber: 2 },
  },
};

/**
 * validatorsHash (LIP 0058; engine/bft/utils.ts computeValidatorsHash): the hash of the validators
 * with positive BFT weight, sorted by BLS key bytewise, together with the certificate threshold.
 */
export function computeValidatorsHash(validators: readonly { blsKey: Buffer; bftWeight: bigint }[], certificateThreshold: bigint): Buffer {
  const activeValidators = validators
    .filter((validator) => validator.bftWeight > 0n)
    .map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight }))
    .sort((a, b) => a.blsKey.compare(b.blsKey));
  return sha256(codec.encode(validatorsHashInputSchema, { activeValidators, certificateThreshold }));
}
