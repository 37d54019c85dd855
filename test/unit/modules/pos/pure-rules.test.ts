/**
 * The pure rules of pos (lisk-sdk 6.1 pos/utils.ts, lisk-utils math/q.ts, pos/module.ts
 * _capWeight): Q96 arithmetic, reward sharing math, BFT weight capping, standby picks,
 * unlock ordering and windows, validator names and weights.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capWeightIfNeeded, ceilingDiv, selectActiveValidators } from '../../../../src/modules/pos/active-validators.js';
import { q96, q96Ceil, q96Div, q96Floor, q96FromBytes, q96Mul, q96MulDiv, q96Sub, q96ToBytes } from '../../../../src/modules/pos/q96.js';
import { calculateStakeRewards, expectedSharedReward, shareReward } from '../../../../src/modules/pos/reward-sharing.js';
import { pickStandbyValidator, selectStandbyValidators } from '../../../../src/modules/pos/standby-selection.js';
import type { ValidatorAccount } from '../../../../src/modules/pos/stores.js';
import {
  hasWaited,
  isCertificateGenerated,
  isPunished,
  remainingPunishment,
  sortUnlocking,
} from '../../../../src/modules/pos/unlocking.js';
import { isUsername } from '../../../../src/modules/pos/username.js';
import { validatorWeight } from '../../../../src/modules/pos/validator-weight.js';

const TWO_96 = 2n ** 96n;
const TOKEN = Buffer.from('0400000000000000', 'hex');

describe('Q96 arithmetic (lisk-utils Q with base 96)', () => {
  it('encodes zero as empty bytes and others as minimal big-endian bytes', () => {
    expect(q96ToBytes(0n)).toEqual(Buffer.alloc(0));
    expect(q96ToBytes(q96(1))).toEqual(Buffer.from(`01${'00'.repeat(12)}`, 'hex'));
    expect(q96ToBytes(0x123n)).toEqual(Buffer.from('0123', 'hex'));
    expect(q96FromBytes(Buffer.alloc(0))).toBe(0n);
    expect(q96FromBytes(Buffer.alloc(24))).toBe(0n);
  });

  it('round-trips through bytes', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 190n }), (v) => q96FromBytes(q96ToBytes(v)) === v),
      { numRuns: 300 },
    );
  });

  it('truncates mul/div, rounds muldiv down or up, floors and ceils', () => {
    expect(q96Mul(q96(3), q96(1) / 2n)).toBe(q96(3) / 2n);
    expect(q96Div(q96(1), q96(3))).toBe(TWO_96 / 3n);
    expect(q96MulDiv(q96(1), q96(1), q96(3))).toBe(TWO_96 / 3n);
    expect(q96MulDiv(q96(1), q96(1), q96(3), true)).toBe(TWO_96 / 3n + 1n);
    expect(q96Floor(q96(5) + 1n)).toBe(5n);
    expect(q96Ceil(q96(5) + 1n)).toBe(6n);
    expect(q96Ceil(q96(5))).toBe(5n);
  });

  it('refuses negative results and division by zero like lisk-utils', () => {
    expect(() => q96Sub(q96(1), q96(2))).toThrow('Invalid input, output cannot be negative.');
    expect(() => q96Div(q96(1), 0n)).toThrow('Cannot be divided by zero.');
    expect(() => q96MulDiv(q96(1), q96(1), 0n)).toThrow('Cannot be divided by zero.');
  });
});

describe('reward sharing (LIP 0057)', () => {
  const validator = (overrides: Partial<ValidatorAccount>): ValidatorAccount => ({
    name: 'v',
    totalStake: 0n,
    selfStake: 0n,
    lastGeneratedHeight: 0,
    isBanned: false,
    reportMisbehaviorHeights: [],
    consecutiveMissedBlocks: 0,
    commission: 0,
    lastCommissionIncreaseHeight: 0,
    sharingCoefficients: [],
    ...overrides,
  });

  it('shares (1 − commission) of the reward per unit of stake and locks the stakers’ part', () => {
    // Commission 20%: 80 of a reward of 100 over 400 staked → 0.2 per unit; stakers hold 300 → 60.
    const v = validator({ commission: 2000, totalStake: 400n, selfStake: 100n });
    expect(shareReward(v, TOKEN, 100n)).toBe(60n);
    // 0.2 truncated to 96 fractional bits (1 − 0.2 is computed from the truncated 0.2, then muldiv truncates).
    expect(q96FromBytes(v.sharingCoefficients[0]!.coefficient)).toBe(TWO_96 / 5n);
    expect(calculateStakeRewards(Buffer.alloc(0), 300n, v.sharingCoefficients[0]!.coefficient)).toBe(59n); // 0.2·300 rounded down after truncations
  });

  it('rounds the locked share up but never above the reward', () => {
    const v = validator({ commission: 0, totalStake: 3n, selfStake: 0n });
    expect(shareReward(v, TOKEN, 1n)).toBe(1n);
    const w = validator({ commission: 0, totalStake: 7n, selfStake: 1n });
    expect(shareReward(w, TOKEN, 10n)).toBe(9n); // 10·6/7 = 8.57… → 9
  });

  it('adds to an existing coefficient and keeps coefficients sorted by token ID', () => {
    const other = Buffer.from('0000000100000000', 'hex');
    const v = validator({ commission: 0, totalStake: 10n, sharingCoefficients: [{ tokenID: TOKEN, coefficient: q96ToBytes(q96(1)) }] });
    shareReward(v, TOKEN, 10n);
    shareReward(v, other, 10n);
    expect(v.sharingCoefficients.map((c) => c.tokenID)).toEqual([other, TOKEN]);
    expect(q96FromBytes(v.sharingCoefficients[1]!.coefficient)).toBe(q96(2));
  });

  it('computes the expected shared reward of a new stake (getExpectedSharedRewards)', () => {
    // Reward 100, commission 10%, existing stake 800, new stake 200: 90 · 200/1000 = 18.
    expect(expectedSharedReward(1000, 800n, 100n, 200n)).toBe(17n); // truncations leave it just below 18
    expect(expectedSharedReward(0, 0n, 100n, 100n)).toBe(100n);
    expect(() => expectedSharedReward(0, 0n, 100n, 0n)).toThrow('Cannot be divided by zero.');
  });

  it('fails when a stake coefficient is ahead of its validator (lisk-sdk throws)', () => {
    expect(() => calculateStakeRewards(q96ToBytes(q96(2)), 1n, q96ToBytes(q96(1)))).toThrow();
  });
});

describe('BFT weights', () => {
  it('scales weights up (ceiling division)', () => {
    expect(ceilingDiv(1n, 1000n)).toBe(1n);
    expect(ceilingDiv(2000n, 1000n)).toBe(2n);
    expect(ceilingDiv(0n, 1000n)).toBe(0n);
    expect(() => ceilingDiv(1n, 0n)).toThrow('Cannot divide by zero.');
  });

  it('does not cap sets smaller than ⌈10000 / cap⌉', () => {
    const small = Array.from({ length: 19 }, (_, i) => ({ address: Buffer.alloc(20, i), weight: i === 0 ? 1000n : 1n }));
    expect(capWeightIfNeeded(small, 500).map((v) => v.weight)[0]).toBe(1000n);
  });

  it('caps the heaviest validators at maxBFTWeightCap of the total (lisk-sdk _capWeight)', () => {
    // 25 validators: one of weight 1000, 24 of weight 10. Cap 5%.
    const validators = [
      { address: Buffer.alloc(20, 0), weight: 1000n },
      ...Array.from({ length: 24 }, (_, i) => ({ address: Buffer.alloc(20, i + 1), weight: 10n })),
    ];
    const capped = capWeightIfNeeded(validators, 500);
    // i = 1: partialSum = 24·10 = 240; capped = 500·240/100/(100 − 5) = 1200/95 = 12 < 1000.
    expect(capped[0]!.weight).toBe(12n);
    expect(capped.slice(1).every((v) => v.weight === 10n)).toBe(true);
    const total = capped.reduce((sum, v) => sum + v.weight, 0n);
    expect(capped[0]!.weight * 10_000n <= 500n * total + 500n * 100n).toBe(true);
  });

  it('selects the top numberActiveValidators after the bootstrap period with scaled weights', () => {
    const snapshot = [3n, 2n, 1n].map((w, i) => ({ address: Buffer.alloc(20, i), weight: w * 1000n + 1n }));
    const active = selectActiveValidators(
      snapshot,
      10,
      { initRounds: 3, initValidators: [] },
      { numberActiveValidators: 2, weightScaleFactor: 1000n, maxBFTWeightCap: 500 },
    );
    expect(active).toEqual([
      { address: Buffer.alloc(20, 0), weight: 4n },
      { address: Buffer.alloc(20, 1), weight: 3n },
    ]);
    // The snapshot entries are not modified.
    expect(snapshot[0]!.weight).toBe(3001n);
  });
});

describe('standby selection', () => {
  const candidates = () => [10n, 20n, 30n].map((weight, i) => ({ address: Buffer.alloc(20, i), weight }));
  const seed = (value: bigint) => {
    const bytes = Buffer.alloc(16);
    bytes.writeBigUInt64BE(value);
    return bytes;
  };

  it('maps the seed modulo the total weight onto cumulated weights', () => {
    expect(pickStandbyValidator(candidates(), seed(0n))).toBe(0);
    expect(pickStandbyValidator(candidates(), seed(9n))).toBe(0);
    expect(pickStandbyValidator(candidates(), seed(10n))).toBe(1);
    expect(pickStandbyValidator(candidates(), seed(29n))).toBe(1);
    expect(pickStandbyValidator(candidates(), seed(30n))).toBe(2);
    expect(pickStandbyValidator(candidates(), seed(60n + 15n))).toBe(1);
  });

  it('picks the second standby among the candidates left, with weight 0', () => {
    expect(selectStandbyValidators(candidates(), seed(10n), seed(10n))).toEqual([
      { address: Buffer.alloc(20, 1), weight: 0n },
      { address: Buffer.alloc(20, 2), weight: 0n },
    ]);
    expect(selectStandbyValidators(candidates(), seed(35n))).toEqual([{ address: Buffer.alloc(20, 2), weight: 0n }]);
    expect(selectStandbyValidators(candidates().slice(0, 2), seed(0n), seed(0n))).toHaveLength(2);
  });
});

describe('unlocking rules', () => {
  const periods = {
    lockingPeriodStaking: 30,
    lockingPeriodSelfStaking: 60,
    punishmentWindowStaking: 100,
    punishmentWindowSelfStaking: 300,
  };
  const staker = Buffer.alloc(20, 1);
  const validator = Buffer.alloc(20, 2);

  it('orders pending unlocks by validator, then height descending, then amount descending', () => {
    const unlocks = [
      { validatorAddress: validator, amount: 1n, unstakeHeight: 5 },
      { validatorAddress: staker, amount: 1n, unstakeHeight: 5 },
      { validatorAddress: validator, amount: 3n, unstakeHeight: 9 },
      { validatorAddress: validator, amount: 7n, unstakeHeight: 5 },
    ];
    sortUnlocking(unlocks);
    expect(unlocks.map((u) => [u.validatorAddress[0], u.unstakeHeight, u.amount])).toEqual([
      [1, 5, 1n],
      [2, 9, 3n],
      [2, 5, 7n],
      [2, 5, 1n],
    ]);
  });

  it('waits the staking or self-staking locking period', () => {
    const unlock = { validatorAddress: validator, amount: 1n, unstakeHeight: 100 };
    expect(hasWaited(unlock, staker, 129, periods)).toBe(false);
    expect(hasWaited(unlock, staker, 130, periods)).toBe(true);
    expect(hasWaited({ ...unlock, validatorAddress: staker }, staker, 159, periods)).toBe(false);
    expect(hasWaited({ ...unlock, validatorAddress: staker }, staker, 160, periods)).toBe(true);
  });

  it('holds unlocks of punished validators within the punishment window', () => {
    const unlock = { validatorAddress: validator, amount: 1n, unstakeHeight: 100 };
    expect(isPunished(unlock, [], staker, 200, periods)).toBe(false);
    expect(isPunished(unlock, [120], staker, 219, periods)).toBe(true);
    expect(isPunished(unlock, [120], staker, 220, periods)).toBe(false);
    expect(isPunished(unlock, [130], staker, 140, periods)).toBe(false);
    expect(remainingPunishment(validator, validator, [120, 50], 200, periods)).toBe(220);
    expect(remainingPunishment(validator, validator, [120], 500, periods)).toBe(0);
  });

  it('requires a certificate over the end of the round two rounds after the unstake', () => {
    const unlock = { validatorAddress: validator, amount: 1n, unstakeHeight: 46 };
    expect(isCertificateGenerated({ unlock, genesisHeight: 0, maxHeightCertified: 308, roundLength: 103 })).toBe(false);
    expect(isCertificateGenerated({ unlock, genesisHeight: 0, maxHeightCertified: 309, roundLength: 103 })).toBe(true);
    expect(
      isCertificateGenerated({ unlock: { ...unlock, unstakeHeight: 0 }, genesisHeight: 0, maxHeightCertified: 206, roundLength: 103 }),
    ).toBe(true);
  });
});

describe('names and weights', () => {
  it('accepts lowercase letters, digits and !@$&_. only', () => {
    for (const name of ['genesis_0', 'a', 'oracle_val_one', '!@$&_.', '0']) expect(isUsername(name)).toBe(true);
    for (const name of ['', 'Upper', ' lead', 'trail ', 'with space', 'uni©ode', 'null\u0000', 'back\\0slash', 'minus-'])
      expect(isUsername(name)).toBe(false);
  });

  it('caps the weight at factorSelfStakes × selfStake', () => {
    expect(validatorWeight(10, 100n, 2000n)).toBe(1000n);
    expect(validatorWeight(10, 100n, 500n)).toBe(500n);
    expect(validatorWeight(10, 0n, 500n)).toBe(0n);
  });
});
