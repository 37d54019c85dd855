import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/errors.js';
import { parseDynamicRewardConfig } from '../../../../src/modules/dynamic-reward/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';

const CHAIN_ID = Buffer.from('04000000', 'hex');

describe('dynamicReward config (lisk-sdk dynamic_reward/constants.ts, schemas.ts)', () => {
  it('defaults to lisk-sdk defaultConfig with tokenID = chainID ‖ 00000000', () => {
    const config = parseDynamicRewardConfig({}, CHAIN_ID);
    expect(config).toEqual({
      tokenID: Buffer.from('0400000000000000', 'hex'),
      offset: 2160,
      distance: 3_000_000,
      brackets: [500000000n, 400000000n, 300000000n, 200000000n, 100000000n],
      rewardReductionFactorBFT: 4n,
      factorMinimumRewardActiveValidators: 1000,
    });
  });

  it('reads the dev chain section (offset 20, distance 200)', () => {
    const devConfig = loadJsonFixture<{ modules: { dynamicReward: Record<string, unknown> } }>('chains/dev/config.json');
    const config = parseDynamicRewardConfig(devConfig.modules.dynamicReward, CHAIN_ID);
    expect(config.offset).toBe(20);
    expect(config.distance).toBe(200);
    expect(config.tokenID.toString('hex')).toBe('0400000000000000');
    expect(config.brackets).toEqual([500000000n, 400000000n, 300000000n, 200000000n, 100000000n]);
  });

  it('replaces arrays whole and keeps defaults for null values (lisk-sdk objects.mergeDeep)', () => {
    const config = parseDynamicRewardConfig({ brackets: ['7'], offset: null, tokenID: '0400000100000000' }, CHAIN_ID);
    expect(config.brackets).toEqual([7n]);
    expect(config.offset).toBe(2160);
    expect(config.tokenID.toString('hex')).toBe('0400000100000000');
  });

  it('lists every invalid key with its path', () => {
    let error: unknown;
    try {
      parseDynamicRewardConfig(
        {
          tokenID: '04',
          offset: 0,
          distance: 1.5,
          brackets: ['1', '-2', 3],
          rewardReductionFactorBFT: '0',
          factorMinimumRewardActiveValidators: 'x',
        },
        CHAIN_ID,
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([
      '.modules.dynamicReward.tokenID: must be a hex string of 16 characters, got "04"',
      '.modules.dynamicReward.offset: must be an integer >= 1, got 0',
      '.modules.dynamicReward.distance: must be an integer >= 1, got 1.5',
      '.modules.dynamicReward.factorMinimumRewardActiveValidators: must be an integer >= 1, got "x"',
      '.modules.dynamicReward.brackets.1: must be a uint64 string, got "-2"',
      '.modules.dynamicReward.brackets.2: must be a uint64 string, got 3',
      '.modules.dynamicReward.rewardReductionFactorBFT: must be a positive integer, got "0"',
    ]);
  });

  it('refuses an empty bracket list and a uint64 overflow', () => {
    expect(() => parseDynamicRewardConfig({ brackets: [] }, CHAIN_ID)).toThrow(
      '.modules.dynamicReward.brackets: must hold at least one bracket',
    );
    expect(() => parseDynamicRewardConfig({ brackets: ['18446744073709551616'] }, CHAIN_ID)).toThrow(
      '.modules.dynamicReward.brackets.0: must be a uint64 string',
    );
  });
});
