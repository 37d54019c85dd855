/**
 * The dynamic reward module (LIP 0071; lisk-sdk framework/src/modules/dynamic_reward): mints each
 * block's reward to its generator, with the reward weighted by the generator's BFT weight and
 * reduced for an invalid seed reveal or missing maximal prevotes. It has no commands and no
 * genesis asset; it keeps one entry, the timestamp of the last end of round.
 */
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type {
  BlockAfterExecuteContext,
  BlockExecuteContext,
  Command,
  EndpointHandler,
  GenesisContext,
  Module,
  ModuleEvent,
  ModuleMetadata,
  ModuleStore,
} from '../base/index.js';
import { moduleMetadata } from '../base/index.js';
import { applyRewardReductions, defaultBlockReward } from './block-reward.js';
import { parseDynamicRewardConfig, type DynamicRewardConfig } from './config.js';
import {
  CONTEXT_STORE_KEY_BLOCK_REDUCTION,
  CONTEXT_STORE_KEY_BLOCK_REWARD,
  DYNAMIC_REWARD_MODULE_NAME,
  EMPTY_KEY,
  REWARD_REDUCTION_NO_ACCOUNT,
} from './constants.js';
import type { DynamicRewardDependencies } from './dependencies.js';
import { createDynamicRewardEndpoints } from './endpoint.js';
import { dynamicRewardEvents, rewardMintedEvent } from './events.js';
import { DynamicRewardMethod } from './method.js';
import { dynamicRewardStores, endOfRoundTimestampStore } from './stores.js';
import { InvariantError } from '../../errors.js';

export class DynamicRewardModule implements Module {
  readonly name = DYNAMIC_REWARD_MODULE_NAME;
  readonly commands: readonly Command<unknown>[] = [];
  readonly stores: readonly ModuleStore<object>[] = dynamicRewardStores;
  readonly events: readonly ModuleEvent<object>[] = dynamicRewardEvents;
  readonly endpoints: Readonly<Record<string, EndpointHandler>>;
  readonly method = new DynamicRewardMethod();

  private moduleConfig: DynamicRewardConfig | undefined;
  private blockTime = 0;

  constructor(private readonly deps: DynamicRewardDependencies) {
    this.endpoints = createDynamicRewardEndpoints({
      config: () => this.config,
      blockTime: () => this.blockTime,
      deps,
    });
  }

  /** The parsed config (throws before init). */
  get config(): DynamicRewardConfig {
    if (this.moduleConfig === undefined) throw new InvariantError('The dynamicReward module is used before init().');
    return this.moduleConfig;
  }

  /** Parses `modules.dynamicReward`; the reward token defaults to the chain's native token 0. */
  init(args: ModuleInitArgs): void {
    this.moduleConfig = parseDynamicRewardConfig(args.moduleConfig, args.genesisConfig.chainID);
    this.blockTime = args.genesisConfig.blockTime;
    this.method.init(this.moduleConfig);
  }

  /** lisk-sdk's metadata of the module (without `name`). */
  metadata(): ModuleMetadata {
    return moduleMetadata(this, []);
  }

  /** The first round's missed-slot window starts at the genesis block. */
  initGenesisState(context: GenesisContext): void {
    endOfRoundTimestampStore.set(context.state, EMPTY_KEY, { timestamp: context.header.timestamp });
  }

  /** LIP 0071: fixes the block's reward and reduction code before any transaction runs. */
  beforeTransactionsExecute(context: BlockExecuteContext): void {
    const reward = defaultBlockReward(context, context.header, this.config, this.deps);
    const [blockReward, reduction] = applyRewardReductions(context, context.header, context.assets, reward, this.config, this.deps.random);
    context.contextStore.set(CONTEXT_STORE_KEY_BLOCK_REWARD, blockReward);
    context.contextStore.set(CONTEXT_STORE_KEY_BLOCK_REDUCTION, reduction);
  }

  /**
   * LIP 0071: mints the reward to the generator and shares it with its stakers (PoS), unless the
   * generator has no account of the reward token (then nothing is minted, code 3); records the
   * timestamp at the end of a round; always emits rewardMinted last.
   */
  afterTransactionsExecute(context: BlockAfterExecuteContext): void {
    const { generatorAddress, height, timestamp } = context.header;
    const { tokenID } = this.config;
    let blockReward = readContextBigInt(context.contextStore, CONTEXT_STORE_KEY_BLOCK_REWARD);
    let reduction = readContextNumber(context.contextStore, CONTEXT_STORE_KEY_BLOCK_REDUCTION);

    if (blockReward !== 0n) {
      if (this.deps.token.userSubstoreExists(context, generatorAddress, tokenID)) {
        this.deps.token.mint(context, generatorAddress, tokenID, blockReward);
        this.deps.pos.updateSharedRewards(context, generatorAddress, tokenID, blockReward);
      } else {
        blockReward = 0n;
        reduction = REWARD_REDUCTION_NO_ACCOUNT;
      }
    }

    if (this.deps.pos.isEndOfRound(context, height)) {
      endOfRoundTimestampStore.set(context.state, EMPTY_KEY, { timestamp });
    }

    rewardMintedEvent.emit(context.events, { amount: blockReward, reduction }, [generatorAddress]);
  }
}

/** lisk-sdk getContextStoreBigInt: a missing value reads as 0. */
function readContextBigInt(store: Map<string, unknown>, key: string): bigint {
  const value = store.get(key);
  if (value === undefined) return 0n;
  if (typeof value !== 'bigint') throw new InvariantError(`Invalid context value for ${key}.`);
  return value;
}

/** lisk-sdk getContextStoreNumber: a missing value reads as 0. */
function readContextNumber(store: Map<string, unknown>, key: string): number {
  const value = store.get(key);
  if (value === undefined) return 0;
  if (typeof value !== 'number') throw new InvariantError(`Invalid context value for ${key}.`);
  return value;
}

export { DynamicRewardMethod } from './method.js';
export { parseDynamicRewardConfig, DEFAULT_DYNAMIC_REWARD_CONFIG } from './config.js';
export type { DynamicRewardConfig } from './config.js';
export type * from './dependencies.js';
export * from './constants.js';
export * from './events.js';
export * from './stores.js';
export { calculateDefaultReward, minimalRewardActiveValidators, stakeRewardActiveValidators } from './reward.js';
export type { WeightedValidator } from './reward.js';
