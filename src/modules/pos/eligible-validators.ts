/**
 * Maintenance of the eligibleValidators index (lisk-sdk 6.1 pos/stores/eligible_validators.ts
 * `update`): every change of a validator's stake, self-stake or status moves its entry.
 */
import type { StateWriter } from '../../state/state-view.js';
import { eligibleValidatorKey, eligibleValidatorsStore, type ValidatorAccount } from './stores.js';
import { validatorWeight } from './validator-weight.js';

/**
 * Removes the entry under `oldWeight` and, unless the validator is banned or its new weight is
 * below minWeightStandby, adds one under the new weight carrying its last misbehavior height.
 */
export function updateEligibleValidator(
  state: StateWriter,
  address: Buffer,
  oldWeight: bigint,
  validator: ValidatorAccount,
  config: { readonly factorSelfStakes: number; readonly minWeightStandby: bigint },
): void {
  eligibleValidatorsStore.del(state, eligibleValidatorKey(address, oldWeight));
  if (validator.isBanned) return;
  const newWeight = validatorWeight(config.factorSelfStakes, validator.selfStake, validator.totalStake);
  if (newWeight < config.minWeightStandby) return;
  const heights = validator.reportMisbehaviorHeights;
  eligibleValidatorsStore.set(state, eligibleValidatorKey(address, newWeight), {
    lastReportMisbehaviorHeight: heights.length > 0 ? (heights[heights.length - 1] as number) : 0,
  });
}
