/**
 * Schemas of the legacy module (lisk-core legacy/schemas.ts), with lisk-core's `$id`s, keywords
 * and key order, so that `system_getMetadata` serializes to the same JSON.
 */
import { objectArrayField, objectSchema, type Schema } from '../../codec/index.js';
import { BLS_KEY_LENGTH, GENERATOR_KEY_LENGTH, LEGACY_ADDRESS_LENGTH, PROOF_OF_POSSESSION_LENGTH } from './constants.js';
import { legacyAccountSchema } from './stores.js';

export const reclaimLSKParamsSchema: Schema = objectSchema('/legacy/command/reclaimLSKParams', {
  amount: { dataType: 'uint64', fieldNumber: 1 },
});

export const registerKeysParamsSchema: Schema = objectSchema('/legacy/command/registerKeysParams', {
  blsKey: { dataType: 'bytes', minLength: BLS_KEY_LENGTH, maxLength: BLS_KEY_LENGTH, fieldNumber: 1 },
  proofOfPossession: {
    dataType: 'bytes',
    minLength: PROOF_OF_POSSESSION_LENGTH,
    maxLength: PROOF_OF_POSSESSION_LENGTH,
    fieldNumber: 2,
  },
  generatorKey: {
    dataType: 'bytes',
    minLength: GENERATOR_KEY_LENGTH,
    maxLength: GENERATOR_KEY_LENGTH,
    fieldNumber: 3,
  },
});

/** The genesis asset (version 0): every unreclaimed pre-v4 account with its balance. */
export const genesisLegacyStoreSchema: Schema = objectSchema('/legacy/module/genesis', {
  accounts: objectArrayField(1, {
    address: {
      dataType: 'bytes',
      minLength: LEGACY_ADDRESS_LENGTH,
      maxLength: LEGACY_ADDRESS_LENGTH,
      fieldNumber: 1,
    },
    balance: { dataType: 'uint64', fieldNumber: 2 },
  }),
});

/** Request of `legacy_getLegacyAccount` (a plain JSON schema). */
export const legacyAccountRequestSchema: Record<string, unknown> = objectSchema('/legacy/endpoint/legacyAccountRequest', {
  publicKey: { type: 'string', format: 'hex' },
});

/**
 * Response schema lisk-core reports for `getLegacyAccount`: the store schema itself, although
 * the answer also carries `legacyAddress` (kept as is: metadata must match the reference).
 */
export const legacyAccountResponseSchema: Schema = legacyAccountSchema;
