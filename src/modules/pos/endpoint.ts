/**
 * RPC endpoints `pos_*` (LIP 0057 "Endpoints for Off-Chain Services"; lisk-sdk 6.1
 * pos/endpoint.ts): JSON in, JSON out, in lisk-sdk's shapes (amounts as decimal strings,
 * addresses lisk32, bytes hex). Params arrive validated against the request schemas by the RPC
 * layer; the checks lisk-sdk repeats inside its handlers are repeated here too.
 */
import { codec, validate } from '../../codec/index.js';
import { decodeLisk32, encodeLisk32 } from '../../crypto/index.js';
import { InvalidParamsError, NotFoundError, ValidationError } from '../../errors.js';
import type { StateReader } from '../../state/state-view.js';
import type { EndpointContext, EndpointHandler, ModuleStore } from '../base/index.js';
import type { PosConfig, PunishmentLockingPeriods } from './config.js';
import { punishmentLockingPeriods, type posConfigSchema } from './config.js';
import { DEFAULT_COMMISSION, EMPTY_KEY, POS_MODULE_NAME } from './constants.js';
import type { PosTokenMethod } from './dependencies.js';
import type { PosInternalMethod } from './internal-method.js';
import { calculateStakeRewards, expectedSharedReward, stakeCoefficientFor } from './reward-sharing.js';
import {
  getAllValidatorsResponseSchema,
  getClaimableRewardsRequestSchema,
  getClaimableRewardsResponseSchema,
  getConstantsResponseSchema,
  getExpectedSharedRewardsRequestSchema,
  getExpectedSharedRewardsResponseSchema,
  getLockedRewardRequestSchema,
  getLockedRewardResponseSchema,
  getLockedStakedAmountRequestSchema,
  getLockedStakedAmountResponseSchema,
  getPendingUnlocksRequestSchema,
  getPendingUnlocksResponseSchema,
  getPoSTokenIDResponseSchema,
  getRegistrationFeeResponseSchema,
  getStakerRequestSchema,
  getStakerResponseSchema,
  getValidatorRequestSchema,
  getValidatorResponseSchema,
  getValidatorsByStakeRequestSchema,
  getValidatorsByStakeResponseSchema,
} from './schemas.js';
import {
  eligibleValidatorsByWeight,
  genesisDataStore,
  getStakerOrDefault,
  splitEligibleValidatorKey,
  stakerStore,
  stakerStoreSchema,
  validatorStore,
  validatorStoreSchema,
  type ValidatorAccount,
} from './stores.js';
import { isCertificateGenerated, punishTime, waitTime } from './unlocking.js';

/** What the endpoints need from the module: its config (after init) and two method objects. */
export interface PosEndpointDeps {
  config(): PosConfig;
  /** The config schema with this chain's block-time bounds (getConstants declares it). */
  configSchema(): ReturnType<typeof posConfigSchema>;
  readonly token: PosTokenMethod;
  readonly internal: PosInternalMethod;
}

export type ValidatorJSON = Record<string, unknown> & {
  address: string;
  punishmentPeriods: { start: number; end: number }[];
};

/** Like lisk-sdk's store getters: a missing key is NotFoundError naming the full state key. */
function getOrNotFound<T extends object>(store: ModuleStore<T>, state: StateReader, key: Buffer): T {
  const value = store.get(state, key);
  if (value === undefined) throw new NotFoundError(`Key ${store.stateKey(key).toString('hex')} does not exist.`);
  return value;
}

/** The `address` param of lisk-sdk's hand-checked endpoints: a string holding a valid lisk32 address. */
function addressParam(params: Record<string, unknown>, name = 'address'): Buffer {
  const value = params[name];
  if (typeof value !== 'string') throw new InvalidParamsError(`Parameter ${name} must be a string.`);
  try {
    return decodeLisk32(value);
  } catch (error) {
    throw new InvalidParamsError(error instanceof Error ? error.message : String(error));
  }
}

/** Schema validation of params, for the endpoints where lisk-sdk validates inside the handler. */
function checkParams(schema: object, params: Record<string, unknown>): void {
  try {
    validate(schema, params);
  } catch (error) {
    if (error instanceof ValidationError) throw new InvalidParamsError(error.message);
    throw error;
  }
}

function validatorJSON(address: Buffer, account: ValidatorAccount, periods: PunishmentLockingPeriods): ValidatorJSON {
  return {
    ...codec.toJSON<Record<string, unknown>>(validatorStoreSchema, account),
    address: encodeLisk32(address),
    punishmentPeriods: account.reportMisbehaviorHeights.map((height) => ({
      start: height,
      end: height + periods.punishmentWindowSelfStaking,
    })),
  };
}

/**
 * Height after which an unstake is unlockable: the waiting period, pushed back to the end of
 * the punishment window when the validator was punished before the waiting period ended.
 */
function expectedUnlockHeight(
  state: StateReader,
  stakerAddress: Buffer,
  validatorAddress: Buffer,
  unstakeHeight: number,
  periods: PunishmentLockingPeriods,
): number {
  const validator = getOrNotFound(validatorStore, state, validatorAddress);
  const waitUntil = waitTime(stakerAddress, validatorAddress, periods) + unstakeHeight;
  const heights = validator.reportMisbehaviorHeights;
  if (heights.length === 0) return waitUntil;
  const lastPomHeight = heights[heights.length - 1] as number;
  // lisk-sdk adds the unstake height twice here; kept, since answers must match.
  if (lastPomHeight >= unstakeHeight + waitUntil) return waitUntil;
  return Math.max(punishTime(stakerAddress, validatorAddress, periods) + lastPomHeight, waitUntil);
}

/** The twelve pos endpoints, in lisk-sdk's metadata order. */
export function createPosEndpoints(deps: PosEndpointDeps): Record<string, EndpointHandler> {
  const periods = (): PunishmentLockingPeriods => punishmentLockingPeriods(deps.config());

  return {
    getAllValidators: {
      response: getAllValidatorsResponseSchema,
      handle(context: EndpointContext): { validators: ValidatorJSON[] } {
        const windows = periods();
        const entries = validatorStore.iterate(context.state, { gte: Buffer.alloc(20, 0), lte: Buffer.alloc(20, 0xff) });
        return { validators: entries.map(({ key, value }) => validatorJSON(key, value, windows)) };
      },
    },

    getValidator: {
      request: getValidatorRequestSchema,
      response: getValidatorResponseSchema,
      handle(context: EndpointContext): ValidatorJSON {
        const address = addressParam(context.params);
        return validatorJSON(address, getOrNotFound(validatorStore, context.state, address), periods());
      },
    },

    getStaker: {
      request: getStakerRequestSchema,
      response: getStakerResponseSchema,
      handle(context: EndpointContext): Record<string, unknown> {
        const address = addressParam(context.params);
        return codec.toJSON(stakerStoreSchema, getOrNotFound(stakerStore, context.state, address));
      },
    },

    getConstants: {
      get response(): Record<string, unknown> {
        return getConstantsResponseSchema(deps.configSchema());
      },
      handle(): Record<string, unknown> {
        const config = deps.config();
        return {
          factorSelfStakes: config.factorSelfStakes,
          maxLengthName: config.maxLengthName,
          maxNumberSentStakes: config.maxNumberSentStakes,
          maxNumberPendingUnlocks: config.maxNumberPendingUnlocks,
          failSafeMissedBlocks: config.failSafeMissedBlocks,
          failSafeInactiveWindow: config.failSafeInactiveWindow,
          punishmentWindowStaking: config.punishmentWindowStaking,
          punishmentWindowSelfStaking: config.punishmentWindowSelfStaking,
          roundLength: config.roundLength,
          minWeightStandby: config.minWeightStandby.toString(),
          numberActiveValidators: config.numberActiveValidators,
          numberStandbyValidators: config.numberStandbyValidators,
          posTokenID: config.posTokenID.toString('hex'),
          validatorRegistrationFee: config.validatorRegistrationFee.toString(),
          maxBFTWeightCap: config.maxBFTWeightCap,
          commissionIncreasePeriod: config.commissionIncreasePeriod,
          maxCommissionIncreaseRate: config.maxCommissionIncreaseRate,
          useInvalidBLSKey: config.useInvalidBLSKey,
          baseStakeAmount: config.baseStakeAmount.toString(),
          lockingPeriodStaking: config.lockingPeriodStaking,
          lockingPeriodSelfStaking: config.lockingPeriodSelfStaking,
          reportMisbehaviorReward: config.reportMisbehaviorReward.toString(),
          reportMisbehaviorLimitBanned: config.reportMisbehaviorLimitBanned,
          weightScaleFactor: config.weightScaleFactor.toString(),
          defaultCommission: DEFAULT_COMMISSION,
        };
      },
    },

    getPoSTokenID: {
      response: getPoSTokenIDResponseSchema,
      handle(): { tokenID: string } {
        return { tokenID: deps.config().posTokenID.toString('hex') };
      },
    },

    getClaimableRewards: {
      request: getClaimableRewardsRequestSchema,
      response: getClaimableRewardsResponseSchema,
      handle(context: EndpointContext): { rewards: { tokenID: string; reward: string }[] } {
        checkParams(getClaimableRewardsRequestSchema, context.params);
        const address = addressParam(context.params);
        const rewards = new Map<string, bigint>();
        for (const stake of getStakerOrDefault(context.state, address).stakes) {
          if (stake.validatorAddress.equals(address)) continue;
          const validator = getOrNotFound(validatorStore, context.state, stake.validatorAddress);
          for (const { tokenID, coefficient } of validator.sharingCoefficients) {
            const reward = calculateStakeRewards(stakeCoefficientFor(stake.sharingCoefficients, tokenID), stake.amount, coefficient);
            const key = tokenID.toString('hex');
            rewards.set(key, (rewards.get(key) ?? 0n) + reward);
          }
        }
        return { rewards: [...rewards].map(([tokenID, reward]) => ({ tokenID, reward: reward.toString() })) };
      },
    },

    getLockedReward: {
      request: getLockedRewardRequestSchema,
      response: getLockedRewardResponseSchema,
      handle(context: EndpointContext): { reward: string } {
        checkParams(getLockedRewardRequestSchema, context.params);
        const tokenID = Buffer.from(context.params.tokenID as string, 'hex');
        const address = addressParam(context.params);
        const locked = deps.token.getLockedAmount(context, address, tokenID, POS_MODULE_NAME);
        if (!tokenID.equals(deps.config().posTokenID)) return { reward: locked.toString() };
        // Tokens of the PoS token locked by pos are stakes and pending unlocks, except the rewards.
        return { reward: (locked - deps.internal.getLockedStakedAmount(context, address)).toString() };
      },
    },

    getLockedStakedAmount: {
      request: getLockedStakedAmountRequestSchema,
      response: getLockedStakedAmountResponseSchema,
      handle(context: EndpointContext): { amount: string } {
        checkParams(getLockedStakedAmountRequestSchema, context.params);
        const address = addressParam(context.params);
        return { amount: deps.internal.getLockedStakedAmount(context, address).toString() };
      },
    },

    getValidatorsByStake: {
      request: getValidatorsByStakeRequestSchema,
      response: getValidatorsByStakeResponseSchema,
      handle(context: EndpointContext): { validators: ValidatorJSON[] } {
        checkParams(getValidatorsByStakeRequestSchema, context.params);
        const limit = (context.params.limit as number | undefined) ?? 100;
        if (limit < -1) throw new InvalidParamsError(`Input parameter limit ${limit} is not valid.`);
        const windows = periods();
        const entries = eligibleValidatorsByWeight(context.state, limit === -1 ? undefined : limit);
        return {
          validators: entries.map(({ key }) => {
            const { address } = splitEligibleValidatorKey(key);
            return validatorJSON(address, getOrNotFound(validatorStore, context.state, address), windows);
          }),
        };
      },
    },

    getPendingUnlocks: {
      request: getPendingUnlocksRequestSchema,
      response: getPendingUnlocksResponseSchema,
      handle(context: EndpointContext): { pendingUnlocks: Record<string, unknown>[] } {
        const address = addressParam(context.params);
        const staker = stakerStore.get(context.state, address);
        if (staker === undefined) return { pendingUnlocks: [] };
        const config = deps.config();
        const windows = periods();
        const { height: genesisHeight } = getOrNotFound(genesisDataStore, context.state, EMPTY_KEY);
        return {
          pendingUnlocks: staker.pendingUnlocks.map((unlock) => {
            const expectedUnlockableHeight = expectedUnlockHeight(
              context.state,
              address,
              unlock.validatorAddress,
              unlock.unstakeHeight,
              windows,
            );
            const certified = isCertificateGenerated({
              unlock,
              genesisHeight,
              maxHeightCertified: context.header.aggregateCommit.height,
              roundLength: config.roundLength,
            });
            return {
              validatorAddress: encodeLisk32(unlock.validatorAddress),
              amount: unlock.amount.toString(),
              unstakeHeight: unlock.unstakeHeight,
              unlockable: context.header.height > expectedUnlockableHeight && certified,
              expectedUnlockableHeight,
            };
          }),
        };
      },
    },

    getRegistrationFee: {
      response: getRegistrationFeeResponseSchema,
      handle(): { fee: string } {
        return { fee: deps.config().validatorRegistrationFee.toString() };
      },
    },

    getExpectedSharedRewards: {
      request: getExpectedSharedRewardsRequestSchema,
      response: getExpectedSharedRewardsResponseSchema,
      handle(context: EndpointContext): { reward: string } {
        checkParams(getExpectedSharedRewardsRequestSchema, context.params);
        const validatorReward = BigInt(context.params.validatorReward as string);
        const stake = BigInt(context.params.stake as string);
        const validator = getOrNotFound(validatorStore, context.state, addressParam(context.params, 'validatorAddress'));
        const reward = expectedSharedReward(validator.commission, validator.totalStake, validatorReward, stake);
        return { reward: reward.toString() };
      },
    },
  };
}
