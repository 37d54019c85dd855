/**
 * Schemas of the legacy module (lisk-core legacy/schemas.ts), with lisk-core's `$id`s, keywords
 * and key order, so that `system_getMetadata` serializes to the same JSON.
 */
import type { Schema } from '../../codec/index.js';
import { BLS_KEY_LENGTH, GENERATOR_KEY_LENGTH, LEGACY_ADDRESS_LENGTH, PROOF_OF_POSSESSION_LENGTH } from './constants.js';
import { legacyAccountSchema } from './stores.js';

export const reclaimLSKParamsSchema: Schema = {
  $id: '/legacy/command/reclaimLSKParams',
  type: 'object',
  required: ['amount'],
  properties: {
    amount: { dataType: 'uint64', fieldNumber: 1 },
  },
};

export const registerKeysParamsSchema: Schema = {
  $id: '/legacy/command/registerKeysParams',
  type: 'object',
  required: ['blsKey', 'proofOfPossession', 'generatorKey'],
  properties: {
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
  },
};

/** The genesis asset (version 0): every unreclaimed pre-v4 account with its balance. */
export const genesisLegacyStoreSchema: Schema = {
  $id: '/legacy/module/genesis',
  type: 'object',
  required: ['accounts'],
  properties: {
    accounts: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'balance'],
        properties: {
          address: {
            dataType: 'bytes',
            minLength: LEGACY_ADDRESS_LENGTH,
            maxLength: LEGACY_ADDRESS_LENGTH,
            fieldNumber: 1,
          },
          balance: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
  },
};

/** Request of `legacy_getLegacyAccount` (a plain JSON schema). */
export const legacyAccountRequestSchema: Record<string, unknown> = {
  $id: '/legacy/endpoint/legacyAccountRequest',
  type: 'object',
  required: ['publicKey'],
  properties: {
    publicKey: { type: 'string', format: 'hex' },
  },
};

/**
 * Response schema lisk-core reports for `getLegacyAccount`: the store schema itself, although
 * the answer also carries `legacyAddress` (kept as is: metadata must match the reference).
 */
export const legacyAccountResponseSchema: Schema = legacyAccountSchema;
