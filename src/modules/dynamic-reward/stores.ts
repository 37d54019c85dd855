/** Stores of the dynamic reward module (lisk-sdk dynamic_reward/stores), in substore index order. */
import type { Schema } from '../../codec/index.js';
import { ModuleStore } from '../base/index.js';
import { DYNAMIC_REWARD_MODULE_NAME } from './constants.js';

export interface EndOfRoundTimestamp {
  timestamp: number;
}

export const endOfRoundTimestampSchema: Schema = {
  $id: '/dynamicRewards/endOfRoundTimestamp',
  type: 'object',
  properties: {
    timestamp: { dataType: 'uint32', fieldNumber: 1 },
  },
  required: ['timestamp'],
};

/**
 * Timestamp of the last block of the previous round (of the genesis block before the first end of
 * round): the start of the window in which missed slots reduce the reward (LIP 0071).
 */
export const endOfRoundTimestampStore = new ModuleStore<EndOfRoundTimestamp>(
  DYNAMIC_REWARD_MODULE_NAME,
  'endOfRoundTimestamp',
  0,
  endOfRoundTimestampSchema,
);

export const dynamicRewardStores = [endOfRoundTimestampStore] as const;
