/**
 * Active validator selection and BFT weights for a round (LIP 0057 "Validator selection" and
 * "BFT weights"; lisk-sdk 6.1 pos/module.ts _getActiveValidators / _capWeightIfNeeded /
 * _capWeight / _ceiling). Weights come from the snapshot scaled down by weightScaleFactor
 * (rounding up); a large set has its top weights capped at maxBFTWeightCap hundredths of a
 * percent of the total.
 */
import { MAX_CAP } from './constants.js';
import type { ValidatorWeight } from './stores.js';

export interface ActiveSelectionConfig {
  readonly numberActiveValidators: number;
  readonly weightScaleFactor: bigint;
  readonly maxBFTWeightCap: number;
}

/** ⌈x / y⌉ for non-negative x; throws on y = 0. */
export function ceilingDiv(x: bigint, y: bigint): bigint {
  if (y === 0n) throw new RangeError('Cannot divide by zero.');
  return (x + y - 1n) / y;
}

/**
 * The active validators of `round`, with their BFT weights, from the round's snapshot (sorted by
 * descending weight). During the bootstrap transition (round < initRounds + numberActive), each
 * round after the init rounds elects one more validator by stake and fills the rest with init
 * validators at the elected validators' average weight; with no one elected, the init
 * validators keep weight 1. Only called once the init rounds are over.
 */
export function selectActiveValidators(
  snapshot: readonly ValidatorWeight[],
  round: number,
  genesis: { readonly initRounds: number; readonly initValidators: readonly Buffer[] },
  config: ActiveSelectionConfig,
): ValidatorWeight[] {
  const scale = (weight: bigint): bigint => ceilingDiv(weight, config.weightScaleFactor);
  const transitionEnd = genesis.initRounds + config.numberActiveValidators;
  if (round >= transitionEnd) {
    const elected = snapshot.slice(0, config.numberActiveValidators);
    return capWeightIfNeeded(
      elected.map((v) => ({ address: v.address, weight: scale(v.weight) })),
      config.maxBFTWeightCap,
    );
  }

  const numInitValidators = transitionEnd - round;
  const numElected = config.numberActiveValidators - numInitValidators;
  let weightSum = 0n;
  const active = snapshot.slice(0, numElected).map((v) => {
    const weight = scale(v.weight);
    weightSum += weight;
    return { address: v.address, weight };
  });
  if (active.length === 0) {
    return genesis.initValidators.slice(0, numInitValidators).map((address) => ({ address, weight: 1n }));
  }
  const averageWeight = weightSum / BigInt(active.length);
  let added = 0;
  for (const address of genesis.initValidators) {
    if (added === numInitValidators) break;
    if (active.some((v) => v.address.equals(address))) continue;
    active.push({ address, weight: averageWeight });
    added += 1;
  }
  return capWeightIfNeeded(active, config.maxBFTWeightCap);
}

/** Caps only sets large enough for the cap to be reachable (at least ⌈MAX_CAP / cap⌉ validators). */
export function capWeightIfNeeded(validators: ValidatorWeight[], capValue: number): ValidatorWeight[] {
  if (validators.length < Math.ceil(MAX_CAP / capValue)) return validators;
  return capWeight(validators, capValue);
}

/**
 * lisk-sdk's cap: walking down from the largest possible number of capped validators i, the
 * first i for which the capped weight c = cap·(sum of the others)/100 / (100 − ⌊cap·i/100⌋) is
 * below the weight of validator i−1 sets the first i weights to c. Mutates and returns the list,
 * which must be sorted by descending weight (integer arithmetic exactly as lisk-sdk's).
 */
function capWeight(validators: ValidatorWeight[], capValue: number): ValidatorWeight[] {
  const maxCappedElements = Math.ceil(MAX_CAP / capValue) - 1;
  const cap = BigInt(capValue);
  let partialSum = 0n;
  for (let i = maxCappedElements + 1; i < validators.length; i += 1) {
    partialSum += (validators[i] as ValidatorWeight).weight;
  }
  for (let i = maxCappedElements; i > 0; i -= 1) {
    partialSum += (validators[i] as ValidatorWeight).weight;
    const capped = (cap * partialSum) / 100n / (100n - BigInt(capValue * i) / 100n);
    if (capped < (validators[i - 1] as ValidatorWeight).weight) {
      for (let j = 0; j < i; j += 1) (validators[j] as ValidatorWeight).weight = capped;
      return validators;
    }
  }
  return validators;
}
