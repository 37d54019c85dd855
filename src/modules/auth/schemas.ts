/**
 * Schemas of the auth module other than its store and events (LIP 0041; lisk-sdk
 * framework/src/modules/auth/schemas.ts): command params, the member-signature message, the
 * genesis asset and the endpoint request/response schemas, exactly as `system_getMetadata`
 * reports them.
 */
import { objectArrayField, objectField, objectOf, objectSchema, type Schema } from '../../codec/index.js';
import { ADDRESS_LENGTH, ED25519_PUBLIC_KEY_LENGTH, ED25519_SIGNATURE_LENGTH, MAX_NUMBER_OF_SIGNATURES } from './constants.js';

const publicKeyItems = {
  dataType: 'bytes',
  minLength: ED25519_PUBLIC_KEY_LENGTH,
  maxLength: ED25519_PUBLIC_KEY_LENGTH,
} as const;

const signatureItems = {
  dataType: 'bytes',
  minLength: ED25519_SIGNATURE_LENGTH,
  maxLength: ED25519_SIGNATURE_LENGTH,
} as const;

/** Params of `auth:registerMultisignature`. */
export interface RegisterMultisignatureParams {
  numberOfSignatures: number;
  mandatoryKeys: Buffer[];
  optionalKeys: Buffer[];
  signatures: Buffer[];
}

export const registerMultisignatureParamsSchema: Schema = {
  $id: '/auth/command/regMultisig',
  type: 'object',
  properties: {
    numberOfSignatures: { dataType: 'uint32', fieldNumber: 1, minimum: 1, maximum: 64 },
    mandatoryKeys: { type: 'array', items: { ...publicKeyItems }, fieldNumber: 2, minItems: 0, maxItems: 64 },
    optionalKeys: { type: 'array', items: { ...publicKeyItems }, fieldNumber: 3, minItems: 0, maxItems: 64 },
    signatures: { type: 'array', items: { ...signatureItems }, fieldNumber: 4 },
  },
  required: ['numberOfSignatures', 'mandatoryKeys', 'optionalKeys', 'signatures'],
};

/** What every member of a new multisignature group signs under the LSK_RMSG_ tag. */
export interface MultisigRegMessage {
  address: Buffer;
  nonce: bigint;
  numberOfSignatures: number;
  mandatoryKeys: Buffer[];
  optionalKeys: Buffer[];
}

export const multisigRegMsgSchema: Schema = objectSchema('/auth/command/regMultisigMsg', {
  address: { dataType: 'bytes', fieldNumber: 1, minLength: ADDRESS_LENGTH, maxLength: ADDRESS_LENGTH },
  nonce: { dataType: 'uint64', fieldNumber: 2 },
  numberOfSignatures: { dataType: 'uint32', fieldNumber: 3 },
  mandatoryKeys: { type: 'array', items: { ...publicKeyItems }, fieldNumber: 4 },
  optionalKeys: { type: 'array', items: { ...publicKeyItems }, fieldNumber: 5 },
});

export const genesisAuthStoreSchema: Schema = objectSchema('/auth/module/genesis', {
  authDataSubstore: objectArrayField(1, {
    address: { dataType: 'bytes', fieldNumber: 1 },
    authAccount: objectField(2, {
      nonce: { dataType: 'uint64', fieldNumber: 1 },
      numberOfSignatures: { dataType: 'uint32', fieldNumber: 2 },
      mandatoryKeys: { type: 'array', fieldNumber: 3, items: { ...publicKeyItems } },
      optionalKeys: { type: 'array', fieldNumber: 4, items: { ...publicKeyItems } },
    }),
  }),
});

/*
 * Endpoint schemas are plain JSON schemas (lisk-validator keywords, not codec schemas): they are
 * typed loosely and only ever handed to the validator and to metadata.
 */

export const addressRequestSchema: Record<string, unknown> = {
  $id: '/auth/addressRequest',
  type: 'object',
  properties: { address: { type: 'string', format: 'lisk32' } },
  required: ['address'],
};

export const transactionRequestSchema: Record<string, unknown> = {
  $id: '/auth/transactionRequest',
  type: 'object',
  properties: { transaction: { type: 'string', format: 'hex' } },
  required: ['transaction'],
};

export const verifyResultSchema: Record<string, unknown> = {
  $id: '/auth/verifyResult',
  type: 'object',
  properties: { verified: { type: 'boolean' } },
  required: ['verified'],
};

function keySignaturePairSchema(publicKeyField: number, signatureMinLength: number): Record<string, unknown> {
  return objectOf({
    publicKey: {
      type: 'string',
      minLength: ED25519_PUBLIC_KEY_LENGTH * 2,
      maxLength: ED25519_PUBLIC_KEY_LENGTH * 2,
      fieldNumber: publicKeyField,
    },
    signature: {
      type: 'string',
      minLength: signatureMinLength,
      maxLength: ED25519_SIGNATURE_LENGTH * 2,
      fieldNumber: publicKeyField + 1,
    },
  });
}

/** Optional members may come without a signature (empty string), mandatory ones may not. */
export const sortMultisignatureGroupRequestSchema: Record<string, unknown> = {
  $id: '/auth/command/sortMultisig',
  required: ['mandatory', 'optional'],
  type: 'object',
  properties: {
    mandatory: {
      type: 'array',
      items: keySignaturePairSchema(1, ED25519_SIGNATURE_LENGTH * 2),
      minItems: 1,
      maxItems: MAX_NUMBER_OF_SIGNATURES,
    },
    optional: {
      type: 'array',
      items: keySignaturePairSchema(3, 0),
      minItems: 0,
      maxItems: MAX_NUMBER_OF_SIGNATURES,
    },
  },
};

export const sortMultisignatureGroupResponseSchema: Schema = {
  $id: '/auth/sortMultisignatureGroupResponse',
  type: 'object',
  properties: {
    mandatoryKeys: { type: 'array', items: { ...publicKeyItems }, fieldNumber: 1, minItems: 0, maxItems: 64 },
    optionalKeys: { type: 'array', items: { ...publicKeyItems }, fieldNumber: 2, minItems: 0, maxItems: 64 },
    signatures: { type: 'array', items: { ...signatureItems }, fieldNumber: 3 },
  },
  required: ['mandatoryKeys', 'optionalKeys', 'signatures'],
};

/** The `$id` keeps lisk-sdk's spelling ("mutli"): it is part of the metadata answer. */
export const multiSigRegMsgTagSchema: Record<string, unknown> = {
  $id: '/auth/mutliSignatureRegistrationSignatureMessageTagResponse',
  type: 'object',
  properties: { tag: { type: 'string' } },
  required: ['tag'],
};
