/**
 * The random module's one on-chain substore (LIP 0046 "State Store"): validatorReveals at index
 * 0 (2441b15f 0000), one entry under the empty key holding the recent seed reveals in height order.
 */
import { objectArrayField, objectSchema, type Schema } from '../../codec/index.js';
import { ModuleStore } from '../base/index.js';
import { ADDRESS_LENGTH, RANDOM_MODULE_NAME, SEED_LENGTH } from './constants.js';

export interface ValidatorSeedReveal {
  generatorAddress: Buffer;
  seedReveal: Buffer;
  height: number;
  /** Whether the reveal continues its generator's previous one (counts for randomness). */
  valid: boolean;
}

export interface ValidatorReveals {
  validatorReveals: ValidatorSeedReveal[];
}

export const validatorRevealsSchema: Schema = objectSchema('/modules/random/seedReveal', {
  validatorReveals: objectArrayField(1, {
    generatorAddress: {
      dataType: 'bytes',
      minLength: ADDRESS_LENGTH,
      maxLength: ADDRESS_LENGTH,
      fieldNumber: 1,
    },
    seedReveal: {
      dataType: 'bytes',
      minLength: SEED_LENGTH,
      maxLength: SEED_LENGTH,
      fieldNumber: 2,
    },
    height: { dataType: 'uint32', fieldNumber: 3 },
    valid: { dataType: 'boolean', fieldNumber: 4 },
  }),
});

export const validatorRevealsStore = new ModuleStore<ValidatorReveals>(RANDOM_MODULE_NAME, 'validatorReveals', 0, validatorRevealsSchema);
