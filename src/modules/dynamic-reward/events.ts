/** Events of the dynamic reward module (lisk-sdk reward/events/reward_minted.ts). */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent } from '../base/index.js';
import { DYNAMIC_REWARD_MODULE_NAME } from './constants.js';

export interface RewardMintedData {
  amount: bigint;
  /** One of the REWARD_* reduction codes. */
  reduction: number;
}

export const rewardMintedDataSchema: Schema = objectSchema('/reward/events/rewardMintedData', {
  amount: { dataType: 'uint64', fieldNumber: 1 },
  reduction: { dataType: 'uint32', fieldNumber: 2 },
});

/** Emitted once per block after the transactions, topics [generatorAddress]. */
export const rewardMintedEvent = new ModuleEvent<RewardMintedData>(DYNAMIC_REWARD_MODULE_NAME, 'rewardMinted', rewardMintedDataSchema);

export const dynamicRewardEvents = [rewardMintedEvent] as const;
