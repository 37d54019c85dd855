/**
 * The pos block hook (LIP 0057 "After Transactions Execution"; lisk-sdk 6.1 pos/module.ts
 * afterTransactionsExecute and its helpers): missed-block accounting and fail-safe banning on
 * every block; at the end of each round a stake-weight snapshot, and once the bootstrap rounds
 * are over, the validator set of the next round handed to BFT.
 */
import type { BlockAfterExecuteContext } from '../base/index.js';
import { selectActiveValidators } from './active-validators.js';
import { setBftValidators } from './bft-validators.js';
import type { PosConfig } from './config.js';
import { EMPTY_KEY, VALIDATOR_LIST_ROUND_OFFSET } from './constants.js';
import type { PosRandomMethod, PosValidatorsMethod } from './dependencies.js';
import { updateEligibleValidator } from './eligible-validators.js';
import type { PosMethod } from './method.js';
import { shuffleValidatorList } from './shuffle.js';
import { selectStandbyValidators } from './standby-selection.js';
import {
  eligibleValidatorsByWeight,
  genesisDataStore,
  previousTimestampStore,
  roundKey,
  snapshotStore,
  splitEligibleValidatorKey,
  validatorStore,
  type ValidatorWeight,
} from './stores.js';
import { validatorWeight } from './validator-weight.js';

export interface AfterTransactionsDeps {
  readonly validators: PosValidatorsMethod;
  readonly random: PosRandomMethod;
  readonly method: PosMethod;
}

/** Runs the whole hook for one block. */
export function posAfterTransactionsExecute(context: BlockAfterExecuteContext, config: PosConfig, deps: AfterTransactionsDeps): void {
  const { height, timestamp } = context.header;
  const endOfRound = deps.method.isEndOfRound(context, height);
  const { timestamp: previousTimestamp } = previousTimestampStore.getOrThrow(context.state, EMPTY_KEY);

  updateProductivity(context, previousTimestamp, config, deps.validators);
  if (endOfRound) createStakeWeightSnapshot(context, config, deps.method);
  const { initRounds } = genesisDataStore.getOrThrow(context.state, EMPTY_KEY);
  const bootstrapOver = deps.method.getRoundNumberFromHeight(context, height + 1) > initRounds;
  if (endOfRound && bootstrapOver) updateValidators(context, config, deps);

  previousTimestampStore.set(context.state, EMPTY_KEY, { timestamp });
}

/**
 * Adds the slots each validator missed since the previous block to its consecutive misses, bans
 * (without an event, as lisk-sdk) those over failSafeMissedBlocks that have not generated for
 * failSafeInactiveWindow blocks, and resets the generator's count.
 */
function updateProductivity(
  context: BlockAfterExecuteContext,
  previousTimestamp: number,
  config: PosConfig,
  validators: PosValidatorsMethod,
): void {
  const { height, timestamp, generatorAddress } = context.header;
  const missed = validators.getGeneratorsBetweenTimestamps(context, previousTimestamp, timestamp);
  for (const [addressKey, count] of Object.entries(missed)) {
    const address = Buffer.from(addressKey, 'latin1');
    const validator = validatorStore.getOrThrow(context.state, address);
    validator.consecutiveMissedBlocks += count;
    if (
      validator.consecutiveMissedBlocks > config.failSafeMissedBlocks &&
      height - validator.lastGeneratedHeight > config.failSafeInactiveWindow
    ) {
      validator.isBanned = true;
      // The weight it is listed under is unchanged: this only removes the eligible entry.
      const weight = validatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake);
      updateEligibleValidator(context.state, address, weight, validator, config);
    }
    validatorStore.set(context.state, address, validator);
  }

  const generator = validatorStore.getOrThrow(context.state, generatorAddress);
  generator.consecutiveMissedBlocks = 0;
  generator.lastGeneratedHeight = height;
  validatorStore.set(context.state, generatorAddress, generator);
}

/**
 * Snapshot for the round two rounds ahead: every eligible validator by descending weight,
 * except those reported for misbehavior within punishmentWindowSelfStaking. Snapshots older
 * than the offset are deleted.
 */
function createStakeWeightSnapshot(context: BlockAfterExecuteContext, config: PosConfig, method: PosMethod): void {
  const snapshotHeight = context.header.height + 1;
  const snapshotRound = method.getRoundNumberFromHeight(context, snapshotHeight) + VALIDATOR_LIST_ROUND_OFFSET;

  const validatorWeightSnapshot: ValidatorWeight[] = [];
  for (const { key, value } of eligibleValidatorsByWeight(context.state)) {
    const lastReport = value.lastReportMisbehaviorHeight;
    if (lastReport === 0 || lastReport < snapshotHeight - config.punishmentWindowSelfStaking) {
      const { address, weight } = splitEligibleValidatorKey(key);
      validatorWeightSnapshot.push({ address, weight });
    }
  }
  snapshotStore.set(context.state, roundKey(snapshotRound), { validatorWeightSnapshot });

  const outdated = snapshotStore.iterate(context.state, {
    gte: roundKey(0),
    lte: roundKey(Math.max(0, snapshotRound - VALIDATOR_LIST_ROUND_OFFSET - 1)),
  });
  for (const { key } of outdated) snapshotStore.del(context.state, key);
}

/**
 * The next round's validators: active ones from its snapshot, plus standby ones chosen with the
 * random seeds once the bootstrap transition is over, shuffled with the first seed and given to
 * BFT with thresholds ⌊2W/3⌋ + 1 of their total weight W.
 */
function updateValidators(context: BlockAfterExecuteContext, config: PosConfig, deps: AfterTransactionsDeps): void {
  const { height } = context.header;
  const nextRound = deps.method.getRoundNumberFromHeight(context, height) + 1;
  const { validatorWeightSnapshot } = snapshotStore.getOrThrow(context.state, roundKey(nextRound));
  const genesisData = genesisDataStore.getOrThrow(context.state, EMPTY_KEY);

  const active = selectActiveValidators(validatorWeightSnapshot, nextRound, genesisData, config);
  const activeAddresses = new Set(active.map((validator) => validator.address.toString('hex')));
  const roundValidators: ValidatorWeight[] = [...active];

  const randomSeed1 = deps.random.getRandomBytes(context, height + 1 - Math.floor((config.roundLength * 3) / 2), config.roundLength);
  if (nextRound >= genesisData.initRounds + config.numberActiveValidators) {
    const candidates = validatorWeightSnapshot.filter((v) => !activeAddresses.has(v.address.toString('hex')));
    if (config.numberStandbyValidators === 2) {
      const randomSeed2 = deps.random.getRandomBytes(context, height + 1 - 2 * config.roundLength, config.roundLength);
      roundValidators.push(...selectStandbyValidators(candidates, randomSeed1, randomSeed2));
    } else if (config.numberStandbyValidators === 1) {
      roundValidators.push(...selectStandbyValidators(candidates, randomSeed1));
    }
  }
  if (roundValidators.length === 0) return;

  const shuffled = shuffleValidatorList(randomSeed1, roundValidators);
  setBftValidators(
    deps.validators,
    context,
    shuffled.map((validator) => ({ address: validator.address, bftWeight: validator.weight })),
  );
}
