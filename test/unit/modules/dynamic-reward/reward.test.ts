import { describe, expect, it } from 'vitest';
import {
  calculateDefaultReward,
  minimalRewardActiveValidators,
  parseDynamicRewardConfig,
  stakeRewardActiveValidators,
} from '../../../../src/modules/dynamic-reward/index.js';

const CHAIN_ID = Buffer.from('04000000', 'hex');
const devConfig = parseDynamicRewardConfig({ offset: 20, distance: 200 }, CHAIN_ID);
const defaultConfig = parseDynamicRewardConfig({}, CHAIN_ID);

// lisk-sdk reward/calculate_reward.ts; dev chain README: the reward becomes 5 LSK at 20, 4 LSK at 220, 3 LSK at 420.
describe('calculateDefaultReward', () => {
  it.each([
    [0, 0n],
    [19, 0n],
    [20, 500000000n],
    [219, 500000000n],
    [220, 400000000n],
    [419, 400000000n],
    [420, 300000000n],
    [619, 300000000n],
    [620, 200000000n],
    [819, 200000000n],
    [820, 100000000n],
    [4_000_000_000, 100000000n],
  ])('dev config, height %i -> %s', (height, reward) => {
    expect(calculateDefaultReward(devConfig, height)).toBe(reward);
  });

  it.each([
    [2159, 0n],
    [2160, 500000000n],
    [3_002_159, 500000000n],
    [3_002_160, 400000000n],
    [12_002_160, 100000000n],
    [15_002_160, 100000000n],
  ])('lisk-sdk default config, height %i -> %s', (height, reward) => {
    expect(calculateDefaultReward(defaultConfig, height)).toBe(reward);
  });

  it('keeps the last bracket forever with a single bracket', () => {
    const config = { offset: 1, distance: 1, brackets: [9n] };
    expect(calculateDefaultReward(config, 0)).toBe(0n);
    expect(calculateDefaultReward(config, 1)).toBe(9n);
    expect(calculateDefaultReward(config, 1000)).toBe(9n);
  });
});

// lisk-sdk dynamic_reward/utils.ts
describe('minimal and stake rewards of active validators', () => {
  it('takes factorMinimumRewardActiveValidators basis points, rounding down', () => {
    expect(minimalRewardActiveValidators({ factorMinimumRewardActiveValidators: 1000 }, 500000000n)).toBe(50000000n);
    expect(minimalRewardActiveValidators({ factorMinimumRewardActiveValidators: 3333 }, 7n)).toBe(2n);
  });

  it('multiplies the remainder by the number of validators with positive weight', () => {
    const validators = [
      { address: Buffer.alloc(20, 1), bftWeight: 5n },
      { address: Buffer.alloc(20, 2), bftWeight: 0n },
      { address: Buffer.alloc(20, 3), bftWeight: 1n },
    ];
    expect(stakeRewardActiveValidators(validators, 500n, 50n)).toBe(900n);
    expect(stakeRewardActiveValidators([], 500n, 50n)).toBe(0n);
  });
});
