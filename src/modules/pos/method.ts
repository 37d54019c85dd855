/**
 * The pos module's method, what other modules call (LIP 0057 "Protocol Logic for Other
 * Modules"; lisk-sdk 6.1 pos/method.ts). Dynamic reward uses getRoundLength, isEndOfRound and
 * updateSharedRewards.
 */
import type { MethodContext, ReadContext } from '../base/index.js';
import type { PosConfig } from './config.js';
import { EMPTY_KEY, POS_MODULE_NAME } from './constants.js';
import type { PosTokenMethod } from './dependencies.js';
import { updateEligibleValidator } from './eligible-validators.js';
import type { PosInternalMethod } from './internal-method.js';
import { shareReward } from './reward-sharing.js';
import { genesisDataStore, nameStore, stakerStore, validatorStore, type StakerData, type ValidatorAccount } from './stores.js';
import { isUsername } from './username.js';
import { ExecutionError, InvariantError } from '../../errors.js';

export class PosMethod {
  private config: PosConfig | undefined;

  constructor(
    private readonly token: PosTokenMethod,
    private readonly internal: PosInternalMethod,
  ) {}

  /** Called by the module's init with the parsed config. */
  init(config: PosConfig): void {
    this.config = config;
  }

  /** Whether `name` is a valid validator name not taken yet. */
  isNameAvailable(ctx: ReadContext, name: string): boolean {
    if (name.length > this.settings.maxLengthName || name.length < 1 || !isUsername(name)) return false;
    return !nameStore.has(ctx.state, Buffer.from(name, 'utf8'));
  }

  /** A staker's stakes and pending unlocks; NotFoundError for an address that never staked. */
  getStaker(ctx: ReadContext, address: Buffer): StakerData {
    return stakerStore.getOrThrow(ctx.state, address);
  }

  /** A validator's account; NotFoundError for an address that is not a validator. */
  getValidator(ctx: ReadContext, address: Buffer): ValidatorAccount {
    return validatorStore.getOrThrow(ctx.state, address);
  }

  /** Blocks per round: active plus standby validators. */
  getRoundLength(_ctx?: ReadContext): number {
    return this.settings.roundLength;
  }

  getNumberOfActiveValidators(_ctx?: ReadContext): number {
    return this.settings.numberActiveValidators;
  }

  /**
   * Books a block reward of `tokenID` for the generator's stakers (LIP 0057 "Reward sharing"):
   * raises the generator's sharing coefficient and locks the stakers' share (after commission)
   * in the generator's balance under the pos module. Nothing happens for a validator without
   * stake. Throws (NotFoundError) when the generator is no validator.
   */
  updateSharedRewards(ctx: MethodContext, generatorAddress: Buffer, tokenID: Buffer, reward: bigint): void {
    const validator = validatorStore.getOrThrow(ctx.state, generatorAddress);
    if (validator.totalStake === 0n) return;
    const lockAmount = shareReward(validator, tokenID, reward);
    this.token.lock(ctx, generatorAddress, POS_MODULE_NAME, tokenID, lockAmount);
    validatorStore.set(ctx.state, generatorAddress, validator);
  }

  /** The round of a height: ⌈(height − genesisHeight) / roundLength⌉. */
  getRoundNumberFromHeight(ctx: ReadContext, height: number): number {
    const { height: genesisHeight } = genesisDataStore.getOrThrow(ctx.state, EMPTY_KEY);
    return Math.ceil((height - genesisHeight) / this.settings.roundLength);
  }

  /** Whether `height` is the last block of a round. */
  isEndOfRound(ctx: ReadContext, height: number): boolean {
    const { height: genesisHeight } = genesisDataStore.getOrThrow(ctx.state, EMPTY_KEY);
    return (height - genesisHeight) % this.settings.roundLength === 0;
  }

  /**
   * Lifts a ban (for governance modules): refused when the validator is not banned or was
   * punished reportMisbehaviorLimitBanned times or more (a permanent ban).
   */
  unbanValidator(ctx: MethodContext, address: Buffer): void {
    const validator = validatorStore.getOrThrow(ctx.state, address);
    if (!validator.isBanned) throw new ExecutionError('The specified validator is not banned.');
    if (validator.reportMisbehaviorHeights.length >= this.settings.reportMisbehaviorLimitBanned) {
      throw new ExecutionError('Validator exceeded the maximum allowed number of misbehaviors and is permanently banned.');
    }
    validator.isBanned = false;
    validatorStore.set(ctx.state, address, validator);
    // A banned validator has no eligible entry, so the "old weight" removed is always 0.
    updateEligibleValidator(ctx.state, address, 0n, validator, this.settings);
  }

  /** Staked plus pending-unlock amount of an address. */
  getLockedStakedAmount(ctx: ReadContext, address: Buffer): bigint {
    return this.internal.getLockedStakedAmount(ctx, address);
  }

  private get settings(): PosConfig {
    if (this.config === undefined) throw new InvariantError('The pos module is used before init.');
    return this.config;
  }
}
