/**
 * The validators module's substores (LIP 0044 "State Store"), in lisk-sdk's registration order:
 * index 0 validatorKeys (66d18af4 0000), 1 validatorsParams (8000), 2 blsKeys (4000).
 */
import { objectOf, type Schema } from '../../codec/index.js';
import { ModuleStore } from '../base/index.js';
import { BLS_PUBLIC_KEY_LENGTH, ED25519_PUBLIC_KEY_LENGTH, VALIDATORS_MODULE_NAME } from './constants.js';

/** A validator's keys, stored under its 20-byte address. */
export interface ValidatorKeys {
  generatorKey: Buffer;
  blsKey: Buffer;
}

/** The owner of a registered BLS key, stored under the 48-byte key. */
export interface BLSKeyOwner {
  address: Buffer;
}

/** One entry of the validator set handed to BFT (lisk-sdk state_machine Validator). */
export interface ParamsValidator {
  address: Buffer;
  bftWeight: bigint;
  generatorKey: Buffer;
  blsKey: Buffer;
}

/** The current validator set and thresholds, stored under the empty key. */
export interface ValidatorsParams {
  preCommitThreshold: bigint;
  certificateThreshold: bigint;
  validators: ParamsValidator[];
}

export const validatorKeysSchema: Schema = {
  $id: '/validators/validatorAccountSubStore',
  title: 'Validators Account Keys',
  type: 'object',
  properties: {
    generatorKey: {
      dataType: 'bytes',
      fieldNumber: 1,
      minLength: ED25519_PUBLIC_KEY_LENGTH,
      maxLength: ED25519_PUBLIC_KEY_LENGTH,
    },
    blsKey: {
      dataType: 'bytes',
      fieldNumber: 2,
      minLength: BLS_PUBLIC_KEY_LENGTH,
      maxLength: BLS_PUBLIC_KEY_LENGTH,
    },
  },
  required: ['generatorKey', 'blsKey'],
};

export const validatorsParamsSchema: Schema = {
  $id: '/validators/validatorsParams',
  type: 'object',
  required: ['validators', 'preCommitThreshold', 'certificateThreshold'],
  properties: {
    preCommitThreshold: { fieldNumber: 1, dataType: 'uint64' },
    certificateThreshold: { fieldNumber: 2, dataType: 'uint64' },
    validators: {
      fieldNumber: 3,
      type: 'array',
      items: objectOf({
        address: { fieldNumber: 1, dataType: 'bytes', format: 'lisk32' },
        bftWeight: { fieldNumber: 2, dataType: 'uint64' },
        generatorKey: { fieldNumber: 3, dataType: 'bytes' },
        blsKey: { fieldNumber: 4, dataType: 'bytes' },
      }),
    },
  },
};

export const blsKeyOwnerSchema: Schema = {
  $id: '/validators/blsKeyData',
  title: 'Validators Addresses',
  type: 'object',
  properties: {
    address: { dataType: 'bytes', fieldNumber: 1 },
  },
  required: ['address'],
};

/** Keys of each validator, by address. */
export const validatorKeysStore = new ModuleStore<ValidatorKeys>(VALIDATORS_MODULE_NAME, 'validatorKeys', 0, validatorKeysSchema);

/** The validator set last given to BFT. */
export const validatorsParamsStore = new ModuleStore<ValidatorsParams>(
  VALIDATORS_MODULE_NAME,
  'validatorsParams',
  1,
  validatorsParamsSchema,
);

/** Reverse index from BLS key to address; guarantees a BLS key is registered once per chain. */
export const blsKeysStore = new ModuleStore<BLSKeyOwner>(VALIDATORS_MODULE_NAME, 'blsKeys', 2, blsKeyOwnerSchema);

/** In registration (= substore index) order, as metadata lists them. */
export const validatorsStores = [validatorKeysStore, validatorsParamsStore, blsKeysStore] as const;
