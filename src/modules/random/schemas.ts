/**
 * Schemas of the random module (lisk-sdk random/schemas.ts): the block asset (a codec schema) and
 * the endpoints' JSON schemas, exactly as `system_getMetadata` reports them.
 */
import { objectOf, objectSchema, type Schema } from '../../codec/index.js';
import { MAX_HASH_COMPUTATION, SEED_LENGTH } from './constants.js';

/** The `random` block asset (LIP 0046): the generator's 16-byte seed reveal. */
export interface RandomAsset {
  seedReveal: Buffer;
}

export const randomAssetSchema: Schema = {
  $id: '/modules/random/block/header/asset',
  type: 'object',
  properties: {
    seedReveal: {
      dataType: 'bytes',
      fieldNumber: 1,
      minLength: SEED_LENGTH,
      maxLength: SEED_LENGTH,
    },
  },
  required: ['seedReveal'],
};

export const isSeedRevealValidRequestSchema = objectSchema('/modules/random/endpoint/isSeedRevealRequest', {
  generatorAddress: { type: 'string', format: 'lisk32' },
  seedReveal: { type: 'string', format: 'hex' },
});

export const isSeedRevealValidResponseSchema = objectSchema('/modules/random/endpoint/isSeedRevealResponse', {
  valid: { type: 'boolean' },
});

/**
 * Request of `setHashOnion`. lisk-sdk also lists it as the *response* schema of
 * `getHashOnionSeeds` in metadata (which does not describe the real answer); kept for metadata.
 */
export const setHashOnionRequestSchema = {
  $id: 'lisk/random/setSeedRequestSchema',
  type: 'object',
  title: 'Random setSeed request',
  required: ['address'],
  properties: {
    address: { type: 'string', format: 'lisk32' },
    seed: {
      type: 'string',
      format: 'hex',
      minLength: SEED_LENGTH * 2,
      maxLength: SEED_LENGTH * 2,
    },
    count: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_HASH_COMPUTATION * 1000,
    },
    distance: { type: 'integer', minimum: 1 },
    hashes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'string',
        format: 'hex',
        minLength: SEED_LENGTH * 2,
        maxLength: SEED_LENGTH * 2,
      },
    },
  },
};

export const addressRequestSchema = objectSchema('lisk/random/addressSchema', {
  address: { type: 'string', format: 'lisk32' },
});

export const hasHashOnionResponseSchema = objectSchema('lisk/random/hasHashOnionResponseSchema', {
  hasSeed: { type: 'boolean' },
  remaining: { type: 'integer', format: 'uint32' },
});

const usedHashOnionsJsonSchema = {
  type: 'array',
  items: objectOf({
    count: { type: 'integer', format: 'uint32' },
    height: { type: 'integer', format: 'uint32' },
  }),
};

export const getHashOnionUsageResponseSchema = objectSchema('lisk/random/getHashOnionUsageResponse', {
  usedHashOnions: usedHashOnionsJsonSchema,
  seed: { type: 'string', format: 'hex' },
});

export const setHashOnionUsageRequestSchema = objectSchema('lisk/random/setHashOnionUsageRequest', {
  address: { type: 'string', format: 'lisk32' },
  usedHashOnions: usedHashOnionsJsonSchema,
});
