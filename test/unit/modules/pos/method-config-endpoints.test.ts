/**
 * The pos method other modules call (lisk-sdk 6.1 pos/method.ts; dynamic reward uses
 * getRoundLength, isEndOfRound, updateSharedRewards), the config (pos/constants.ts defaultConfig,
 * pos/schemas.ts configSchema with block-time bounds), and the endpoints on states the dev chain
 * does not reach (pos/endpoint.ts).
 */
import { describe, expect, it } from 'vitest';
import { encodeLisk32 } from '../../../../src/crypto/index.js';
import { silentLogger } from '../../../../src/logger.js';
import type { EndpointContext } from '../../../../src/modules/base/index.js';
import {
  DEFAULT_POS_CONFIG,
  eligibleValidatorKey,
  eligibleValidatorsStore,
  stakerStore,
  validatorStore,
} from '../../../../src/modules/pos/index.js';
import { parsePosConfig } from '../../../../src/modules/pos/config.js';
import { q96, q96FromBytes, q96ToBytes } from '../../../../src/modules/pos/q96.js';
import { DEV_CHAIN_ID, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { TOKEN_ID, account, addValidator, createPos, setGenesisData } from './pos-test-kit.js';

const LSK = 100_000_000n;

describe('pos config', () => {
  it('defaults to lisk-sdk 6.1 defaultConfig, posTokenID = chainID ‖ 00000000, roundLength = active + standby', () => {
    const config = parsePosConfig({}, testGenesisConfig);
    expect(config).toMatchObject({
      factorSelfStakes: 10,
      maxLengthName: 20,
      maxNumberSentStakes: 10,
      maxNumberPendingUnlocks: 20,
      failSafeMissedBlocks: 50,
      failSafeInactiveWindow: 120_960,
      punishmentWindowStaking: 241_920,
      punishmentWindowSelfStaking: 725_760,
      minWeightStandby: 100_000_000_000n,
      numberActiveValidators: 101,
      numberStandbyValidators: 2,
      validatorRegistrationFee: 1_000_000_000n,
      maxBFTWeightCap: 500,
      commissionIncreasePeriod: 241_920,
      maxCommissionIncreaseRate: 500,
      useInvalidBLSKey: false,
      baseStakeAmount: 1_000_000_000n,
      lockingPeriodStaking: 25_920,
      lockingPeriodSelfStaking: 241_920,
      reportMisbehaviorReward: 100_000_000n,
      reportMisbehaviorLimitBanned: 5,
      weightScaleFactor: 100_000_000_000n,
      roundLength: 103,
    });
    expect(config.posTokenID).toEqual(Buffer.from('0400000000000000', 'hex'));
    expect(Object.keys(DEFAULT_POS_CONFIG)).toHaveLength(22);
  });

  it('takes the section’s values over the defaults', () => {
    const config = parsePosConfig(
      { numberActiveValidators: 51, numberStandbyValidators: 0, posTokenID: '0100000000000001', minWeightStandby: '5' },
      testGenesisConfig,
    );
    expect(config).toMatchObject({ roundLength: 51, minWeightStandby: 5n, posTokenID: Buffer.from('0100000000000001', 'hex') });
  });

  it('rejects values outside lisk-sdk’s schema with `.modules.pos.<key>` errors', () => {
    const bad = (section: Record<string, unknown>) => () => parsePosConfig(section, testGenesisConfig);
    expect(bad({ maxLengthName: 31 })).toThrow('.modules.pos.maxLengthName');
    expect(bad({ numberActiveValidators: 200 })).toThrow('.modules.pos.numberActiveValidators');
    expect(bad({ numberStandbyValidators: 3 })).toThrow('.modules.pos.numberStandbyValidators');
    expect(bad({ maxBFTWeightCap: 299 })).toThrow('.modules.pos.maxBFTWeightCap');
    expect(bad({ minWeightStandby: 'ten' })).toThrow('.modules.pos.minWeightStandby');
    expect(bad({ posTokenID: 'xyz' })).toThrow('.modules.pos.posTokenID');
    expect(bad({ useInvalidBLSKey: 'no' })).toThrow('.modules.pos.useInvalidBLSKey');
    expect(bad({ weightScaleFactor: '-1' })).toThrow('.modules.pos.weightScaleFactor');
  });

  it('bounds failSafeInactiveWindow and punishmentWindowSelfStaking to 5 days … 1 year of blocks', () => {
    // 10 s blocks: 43200 … 3153600; 3 s blocks (the dev chain): 144000 … 10512000.
    expect(() => parsePosConfig({ failSafeInactiveWindow: 43_199 }, testGenesisConfig)).toThrow('.modules.pos.failSafeInactiveWindow');
    expect(parsePosConfig({ failSafeInactiveWindow: 43_200 }, testGenesisConfig).failSafeInactiveWindow).toBe(43_200);
    const threeSeconds = { ...testGenesisConfig, blockTime: 3 };
    expect(() => parsePosConfig({}, threeSeconds)).toThrow('.modules.pos.failSafeInactiveWindow');
    expect(() => parsePosConfig({ failSafeInactiveWindow: 144_000, punishmentWindowSelfStaking: 10_512_001 }, threeSeconds)).toThrow(
      '.modules.pos.punishmentWindowSelfStaking',
    );
  });
});

describe('pos method', () => {
  it('gives round length, active count, round numbers and round ends relative to the genesis height', () => {
    const { pos } = createPos({ numberActiveValidators: 5, numberStandbyValidators: 2 });
    const harness = new ModuleHarness();
    setGenesisData(harness, { height: 10 });
    expect(pos.method.getRoundLength(harness)).toBe(7);
    expect(pos.method.getNumberOfActiveValidators(harness)).toBe(5);
    expect([11, 17, 18, 24].map((h) => pos.method.getRoundNumberFromHeight(harness, h))).toEqual([1, 1, 2, 2]);
    expect([16, 17, 24, 10].map((h) => pos.method.isEndOfRound(harness, h))).toEqual([false, true, true, true]);
  });

  it('updateSharedRewards locks the stakers’ share and raises the coefficient; nothing without stake', () => {
    const setup = createPos();
    const harness = new ModuleHarness();
    const generator = account('generator').address;
    addValidator(harness, generator, { commission: 2000, totalStake: 400n * LSK, selfStake: 100n * LSK });
    setup.token.credit(harness, generator, 100n * LSK);
    const ctx = harness.blockExecuteContext('after');
    setup.pos.method.updateSharedRewards(ctx, generator, TOKEN_ID, 100n * LSK);
    expect(setup.token.getLockedAmount(harness, generator, TOKEN_ID, 'pos')).toBe(60n * LSK);
    const coefficient = validatorStore.getOrThrow(harness.state, generator).sharingCoefficients[0]!;
    expect(coefficient.tokenID).toEqual(TOKEN_ID);
    expect(q96FromBytes(coefficient.coefficient)).toBe(q96(1) / 5n);

    const idle = account('idle').address;
    addValidator(harness, idle);
    setup.pos.method.updateSharedRewards(ctx, idle, TOKEN_ID, 100n * LSK);
    expect(validatorStore.getOrThrow(harness.state, idle).sharingCoefficients).toEqual([]);
    expect(() => setup.pos.method.updateSharedRewards(ctx, account('nobody').address, TOKEN_ID, 1n)).toThrow();
  });

  it('unbanValidator: refuses unbanned and permanently banned validators, restores the eligible entry', () => {
    const { pos } = createPos();
    const harness = new ModuleHarness();
    const ctx = harness.blockExecuteContext('after');
    const address = account('banned').address;
    addValidator(harness, address, { selfStake: 200n * LSK, totalStake: 1500n * LSK });
    expect(() => pos.method.unbanValidator(ctx, address)).toThrow('The specified validator is not banned.');
    addValidator(harness, address, { isBanned: true, reportMisbehaviorHeights: [1, 2, 3, 4, 5] });
    expect(() => pos.method.unbanValidator(ctx, address)).toThrow('permanently banned');
    addValidator(harness, address, { isBanned: true, selfStake: 200n * LSK, totalStake: 1500n * LSK, reportMisbehaviorHeights: [7] });
    pos.method.unbanValidator(ctx, address);
    expect(validatorStore.getOrThrow(harness.state, address).isBanned).toBe(false);
    expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 })).toEqual([
      { key: eligibleValidatorKey(address, 1500n * LSK), value: { lastReportMisbehaviorHeight: 7 } },
    ]);
  });

  it('isNameAvailable, getStaker, getValidator, getLockedStakedAmount', () => {
    const { pos } = createPos();
    const harness = new ModuleHarness();
    const address = account('named').address;
    addValidator(harness, address, { name: 'taken' });
    expect(pos.method.isNameAvailable(harness, 'taken')).toBe(false);
    expect(pos.method.isNameAvailable(harness, 'free')).toBe(true);
    expect(pos.method.isNameAvailable(harness, 'a'.repeat(21))).toBe(false);
    expect(pos.method.isNameAvailable(harness, 'Caps')).toBe(false);
    expect(pos.method.getValidator(harness, address).name).toBe('taken');
    expect(() => pos.method.getStaker(harness, address)).toThrow();
    stakerStore.set(harness.state, address, {
      stakes: [{ validatorAddress: address, amount: 30n, sharingCoefficients: [] }],
      pendingUnlocks: [{ validatorAddress: address, amount: 12n, unstakeHeight: 1 }],
    });
    expect(pos.method.getLockedStakedAmount(harness, address)).toBe(42n);
  });
});

describe('pos endpoints beyond the dev chain tip', () => {
  const call = (setup: ReturnType<typeof createPos>, harness: ModuleHarness, name: string, params: Record<string, unknown> = {}) => {
    const context: EndpointContext = { state: harness.state, chainID: DEV_CHAIN_ID, logger: silentLogger, header: harness.header, params };
    return setup.pos.endpoints[name]!.handle(context);
  };
  const lisk32 = (address: Buffer) => encodeLisk32(address);

  it('getConstants, getPoSTokenID, getRegistrationFee answer from the config', () => {
    const setup = createPos();
    const harness = new ModuleHarness();
    expect(call(setup, harness, 'getConstants')).toMatchObject({
      roundLength: 103,
      defaultCommission: 10_000,
      posTokenID: '0400000000000000',
      weightScaleFactor: '100000000000',
    });
    expect(call(setup, harness, 'getPoSTokenID')).toEqual({ tokenID: '0400000000000000' });
    expect(call(setup, harness, 'getRegistrationFee')).toEqual({ fee: '1000000000' });
  });

  it('getValidatorsByStake: default limit 100, -1 for all, below -1 invalid', () => {
    const setup = createPos();
    const harness = new ModuleHarness();
    const addresses = Array.from({ length: 3 }, (_, i) => account(`by-stake-${i}`).address);
    addresses.forEach((address, i) => {
      addValidator(harness, address, {
        totalStake: BigInt(i + 1) * 1000n * LSK,
        selfStake: 1000n * LSK,
        reportMisbehaviorHeights: i === 0 ? [5] : [],
      });
      eligibleValidatorsStore.set(harness.state, eligibleValidatorKey(address, BigInt(i + 1) * 1000n * LSK), {
        lastReportMisbehaviorHeight: 0,
      });
    });
    const names = (result: unknown) => (result as { validators: { address: string }[] }).validators.map((v) => v.address);
    expect(names(call(setup, harness, 'getValidatorsByStake'))).toEqual([...addresses].reverse().map(lisk32));
    expect(names(call(setup, harness, 'getValidatorsByStake', { limit: 2 }))).toEqual([addresses[2]!, addresses[1]!].map(lisk32));
    expect(names(call(setup, harness, 'getValidatorsByStake', { limit: -1 }))).toHaveLength(3);
    expect(() => call(setup, harness, 'getValidatorsByStake', { limit: -2 })).toThrow('Input parameter limit -2 is not valid.');
    const punished = (call(setup, harness, 'getValidatorsByStake', { limit: -1 }) as { validators: Record<string, unknown>[] })
      .validators[2];
    expect(punished).toMatchObject({ reportMisbehaviorHeights: [5], punishmentPeriods: [{ start: 5, end: 5 + 725_760 }] });
  });

  it('getPendingUnlocks: a punishment pushes the expected unlock height to the end of the window', () => {
    const setup = createPos();
    const harness = new ModuleHarness({
      header: { height: 500, aggregateCommit: { height: 400, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) } },
    });
    setGenesisData(harness);
    const staker = account('pending').address;
    const validator = account('punished').address;
    addValidator(harness, validator, { reportMisbehaviorHeights: [20] });
    stakerStore.set(harness.state, staker, {
      stakes: [],
      pendingUnlocks: [{ validatorAddress: validator, amount: 10n, unstakeHeight: 10 }],
    });
    expect(call(setup, harness, 'getPendingUnlocks', { address: lisk32(staker) })).toEqual({
      pendingUnlocks: [
        { validatorAddress: lisk32(validator), amount: '10', unstakeHeight: 10, unlockable: false, expectedUnlockableHeight: 20 + 241_920 },
      ],
    });
    expect(call(setup, harness, 'getPendingUnlocks', { address: lisk32(validator) })).toEqual({ pendingUnlocks: [] });
    expect(() => call(setup, harness, 'getPendingUnlocks', { address: 'lsknotanaddress' })).toThrow();
  });

  it('getClaimableRewards and getLockedReward', () => {
    const setup = createPos();
    const harness = new ModuleHarness();
    const staker = account('rewarded').address;
    const validator = account('sharing').address;
    const otherToken = Buffer.from('0400000000000001', 'hex');
    addValidator(harness, validator, {
      sharingCoefficients: [
        { tokenID: TOKEN_ID, coefficient: q96ToBytes(q96(3)) },
        { tokenID: otherToken, coefficient: q96ToBytes(q96(1)) },
      ],
    });
    stakerStore.set(harness.state, staker, {
      stakes: [{ validatorAddress: validator, amount: 10n, sharingCoefficients: [{ tokenID: TOKEN_ID, coefficient: q96ToBytes(q96(1)) }] }],
      pendingUnlocks: [{ validatorAddress: validator, amount: 5n, unstakeHeight: 1 }],
    });
    expect(call(setup, harness, 'getClaimableRewards', { address: lisk32(staker) })).toEqual({
      rewards: [
        { tokenID: '0400000000000000', reward: '20' },
        { tokenID: '0400000000000001', reward: '10' },
      ],
    });
    setup.token.setAccount(harness, staker, { availableBalance: 0n, lockedBalances: [{ module: 'pos', amount: 100n }] });
    setup.token.setAccount(harness, staker, { availableBalance: 0n, lockedBalances: [{ module: 'pos', amount: 7n }] }, otherToken);
    expect(call(setup, harness, 'getLockedReward', { address: lisk32(staker), tokenID: '0400000000000000' })).toEqual({ reward: '85' });
    expect(call(setup, harness, 'getLockedReward', { address: lisk32(staker), tokenID: '0400000000000001' })).toEqual({ reward: '7' });
    expect(call(setup, harness, 'getLockedStakedAmount', { address: lisk32(staker) })).toEqual({ amount: '15' });
  });

  it('getExpectedSharedRewards and the not-found answers', () => {
    const setup = createPos();
    const harness = new ModuleHarness();
    const validator = account('expected').address;
    addValidator(harness, validator, { commission: 1000, totalStake: 800n });
    expect(
      call(setup, harness, 'getExpectedSharedRewards', { validatorAddress: lisk32(validator), validatorReward: '100', stake: '200' }),
    ).toEqual({ reward: '17' });
    const missing = account('missing').address;
    expect(() => call(setup, harness, 'getValidator', { address: lisk32(missing) })).toThrow(
      `Key ${validatorStore.stateKey(missing).toString('hex')} does not exist.`,
    );
    expect(() => call(setup, harness, 'getStaker', { address: lisk32(missing) })).toThrow(/^Key 7160f8680000/);
    expect(() => call(setup, harness, 'getStaker', { address: 5 })).toThrow('Parameter address must be a string.');
  });
});
