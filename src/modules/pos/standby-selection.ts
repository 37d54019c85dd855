/**
 * Standby validator selection (LIP 0057 "Validator selection"; lisk-sdk 6.1 pos/utils.ts
 * pickStandByValidator / selectStandbyValidators): outside the bootstrap period, one or two
 * validators below the active set are picked at random, weighted by their weight.
 */
import type { ValidatorWeight } from './stores.js';

/**
 * Index picked by a seed: the first 8 bytes of the seed as a big-endian integer, modulo the
 * total weight, fall into one validator's share of the cumulated weights; -1 if none.
 * Throws (division by zero) when every candidate has zero weight, as lisk-sdk does.
 */
export function pickStandbyValidator(candidates: readonly ValidatorWeight[], randomSeed: Buffer): number {
  const seedNumber = randomSeed.readBigUInt64BE(0);
  let totalWeight = 0n;
  for (const candidate of candidates) totalWeight += candidate.weight;
  let threshold = seedNumber % totalWeight;
  for (let index = 0; index < candidates.length; index += 1) {
    const weight = (candidates[index] as ValidatorWeight).weight;
    if (weight > threshold) return index;
    threshold -= weight;
  }
  return -1;
}

/**
 * Picks one standby validator per seed (the second pick from the candidates left after the
 * first). When there are no more candidates than picks, all of them are taken. Standby
 * validators get BFT weight 0. `candidates` is consumed: picked entries are removed from it.
 */
export function selectStandbyValidators(candidates: ValidatorWeight[], randomSeed1: Buffer, randomSeed2?: Buffer): ValidatorWeight[] {
  const picks = randomSeed2 === undefined ? 1 : 2;
  if (candidates.length <= picks) {
    return candidates.map((candidate) => ({ address: candidate.address, weight: 0n }));
  }
  const selected: ValidatorWeight[] = [];
  for (const seed of randomSeed2 === undefined ? [randomSeed1] : [randomSeed1, randomSeed2]) {
    const index = pickStandbyValidator(candidates, seed);
    // lisk-sdk splices at the picked index; -1 (unreachable with positive weights) takes the last.
    const [picked] = candidates.splice(index, 1);
    selected.push({ address: (picked as ValidatorWeight).address, weight: 0n });
  }
  return selected;
}
