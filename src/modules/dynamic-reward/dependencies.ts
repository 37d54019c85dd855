/**
 * What the dynamic reward module calls on other modules (lisk-sdk dynamic_reward/types.ts), typed
 * structurally so that the real modules' `method` objects satisfy these interfaces without being
 * imported here.
 */
import type { ExecutionAssets, MethodContext, ReadContext } from '../base/index.js';
import type { WeightedValidator } from './reward.js';

export interface DynamicRewardTokenMethod {
  mint(ctx: MethodContext, address: Buffer, tokenID: Buffer, amount: bigint): void;
  userSubstoreExists(ctx: ReadContext, address: Buffer, tokenID: Buffer): boolean;
}

export interface DynamicRewardRandomMethod {
  /** Whether the block's seed reveal matches the generator's previous one; throws if the asset is missing. */
  isSeedRevealValid(ctx: ReadContext, generatorAddress: Buffer, assets: ExecutionAssets): boolean;
}

export interface DynamicRewardValidatorsMethod {
  /** Slots each validator had strictly between the two timestamps, keyed by the latin1 address. */
  getGeneratorsBetweenTimestamps(ctx: ReadContext, startTimestamp: number, endTimestamp: number): Record<string, number>;
  getValidatorsParams(ctx: ReadContext): { readonly validators: readonly WeightedValidator[] };
}

export interface DynamicRewardPosMethod {
  getRoundLength(ctx: ReadContext): number;
  updateSharedRewards(ctx: MethodContext, generatorAddress: Buffer, tokenID: Buffer, reward: bigint): void;
  isEndOfRound(ctx: ReadContext, height: number): boolean;
}

export interface DynamicRewardDependencies {
  readonly token: DynamicRewardTokenMethod;
  readonly random: DynamicRewardRandomMethod;
  readonly validators: DynamicRewardValidatorsMethod;
  readonly pos: DynamicRewardPosMethod;
}
