/**
 * JSON schemas of the validators endpoints (lisk-sdk validators/schemas.ts), exactly as
 * `system_getMetadata` reports them. These are JSON-schema (lisk-validator) schemas of the JSON
 * params and results, not codec schemas.
 */
import { BLS_POP_LENGTH, BLS_PUBLIC_KEY_LENGTH } from './constants.js';

export const validateBLSKeyRequestSchema = {
  $id: '/validators/endpoint/validateBLSKeyRequest',
  title: 'Bls Key Properties',
  type: 'object',
  properties: {
    proofOfPossession: {
      type: 'string',
      format: 'hex',
      minLength: BLS_POP_LENGTH * 2,
      maxLength: BLS_POP_LENGTH * 2,
    },
    blsKey: {
      type: 'string',
      format: 'hex',
      minLength: BLS_PUBLIC_KEY_LENGTH * 2,
      maxLength: BLS_PUBLIC_KEY_LENGTH * 2,
    },
  },
  required: ['proofOfPossession', 'blsKey'],
};

export const validateBLSKeyResponseSchema = {
  $id: '/validators/endpoint/validateBLSKeyResponse',
  title: 'Bls Key Properties',
  type: 'object',
  properties: {
    valid: { type: 'boolean' },
  },
  required: ['valid'],
};

// lisk-sdk writes `dataType` (not `type`) here; kept as is, since metadata must match.
export const getValidatorRequestSchema = {
  $id: '/validators/endpoint/getValidatorRequest',
  title: 'Validator properties',
  type: 'object',
  properties: {
    address: { dataType: 'string', format: 'lisk32' },
  },
  required: ['address'],
};

export const getValidatorResponseSchema = {
  $id: '/validators/endpoint/getValidatorResponse',
  title: 'Validator properties',
  type: 'object',
  properties: {
    generatorKey: { type: 'string', format: 'hex' },
    blsKey: { type: 'string', format: 'hex' },
  },
  required: ['generatorKey', 'blsKey'],
};
