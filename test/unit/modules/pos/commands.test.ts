/**
 * pos:registerValidator, changeCommission, updateGeneratorKey, claimRewards and unlock
 * (lisk-sdk 6.1 pos/commands/*): verify failures in lisk-sdk's order and execute paths with
 * their events, commission increase limits, and unlock timing (locking periods for stakes and
 * self-stakes, certificates, punished validators).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VerifyStatus, type VerificationResult } from '../../../../src/modules/base/index.js';
import {
  commissionChangeDataSchema,
  nameStore,
  stakerStore,
  validatorRegisteredDataSchema,
  validatorStore,
  rewardsAssignedDataSchema,
} from '../../../../src/modules/pos/index.js';
import type { ChangeCommissionParams } from '../../../../src/modules/pos/commands/change-commission.js';
import type { RegisterValidatorParams } from '../../../../src/modules/pos/commands/register-validator.js';
import type { UpdateGeneratorKeyParams } from '../../../../src/modules/pos/commands/update-generator-key.js';
import { q96, q96ToBytes } from '../../../../src/modules/pos/q96.js';
import {
  changeCommissionParamsSchema,
  emptyParamsSchema,
  registerValidatorParamsSchema,
  updateGeneratorKeyParamsSchema,
} from '../../../../src/modules/pos/schemas.js';
import { validatorKeysStore } from '../../../../src/modules/validators/stores.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { hex } from '../../../support/fixtures.js';
import { posGenesisJSON } from './dev-chain.js';
import {
  AVAILABLE_FEE_KEY,
  TOKEN_ID,
  account,
  addValidator,
  createPos,
  decodeEvent,
  moduleEvents,
  posCommand,
  posTransaction,
  runCommand,
  setGenesisData,
  type PosSetup,
} from './pos-test-kit.js';

const LSK = 100_000_000n;
const FEE = 10n * LSK;
const failed = (result: VerificationResult) => ({ status: result.status, message: result.error?.message });

describe('pos:registerValidator', () => {
  const genesisValidator = posGenesisJSON().validators[0]!;
  const keys = {
    blsKey: hex(genesisValidator.blsKey as string),
    proofOfPossession: hex(genesisValidator.proofOfPossession as string),
    generatorKey: hex(genesisValidator.generatorKey as string),
  };
  const sender = account('new-validator');
  let setup: PosSetup;
  let harness: ModuleHarness;
  const command = () => posCommand<RegisterValidatorParams>(setup.pos, 'registerValidator');
  const transaction = (params: RegisterValidatorParams, fee = FEE + 200_000n) =>
    posTransaction('registerValidator', registerValidatorParamsSchema, params, sender, fee);

  beforeEach(() => {
    setup = createPos();
    harness = new ModuleHarness({ header: { height: 7 } });
  });

  it('verify: name format, then name taken, then already a validator, then fee', () => {
    const verify = (params: RegisterValidatorParams, fee?: bigint) =>
      failed(command().verify!(harness.commandVerifyContext(transaction(params, fee), params)) as VerificationResult);
    expect(verify({ name: 'Upper', ...keys })).toEqual({ status: VerifyStatus.FAIL, message: "'name' is in an unsupported format: Upper" });
    expect(verify({ name: 'with space', ...keys }).status).toBe(VerifyStatus.FAIL);
    addValidator(harness, account('other').address, { name: 'taken' });
    expect(verify({ name: 'taken', ...keys }).message).toBe('Name substore must not have an entry for the store key name');
    addValidator(harness, sender.address, { name: 'mine' });
    expect(verify({ name: 'free', ...keys }).message).toBe('Validator substore must not have an entry for the store key address');
    validatorStore.del(harness.state, sender.address);
    expect(verify({ name: 'free', ...keys }, FEE - 1n).message).toBe('Insufficient transaction fee.');
    expect(verify({ name: 'free_name.1!@$&', ...keys }).status).toBe(VerifyStatus.OK);
  });

  it('execute: registers the keys, pays the fee, stores validator and name, emits validatorRegistered', () => {
    const params = { name: 'oracle', ...keys };
    harness.contextStore.set(AVAILABLE_FEE_KEY, FEE + 5n);
    expect(runCommand(harness, command(), transaction(params), params).ok).toBe(true);
    expect(harness.contextStore.get(AVAILABLE_FEE_KEY)).toBe(5n);
    expect(validatorKeysStore.get(harness.state, sender.address)).toEqual({ generatorKey: keys.generatorKey, blsKey: keys.blsKey });
    expect(validatorStore.get(harness.state, sender.address)).toEqual({
      name: 'oracle',
      totalStake: 0n,
      selfStake: 0n,
      lastGeneratedHeight: 7,
      isBanned: false,
      reportMisbehaviorHeights: [],
      consecutiveMissedBlocks: 0,
      commission: 10_000,
      lastCommissionIncreaseHeight: 7,
      sharingCoefficients: [],
    });
    expect(nameStore.get(harness.state, Buffer.from('oracle'))).toEqual({ validatorAddress: sender.address });
    const events = harness.events.events().map((e) => `${e.module}:${e.name}`);
    expect(events).toEqual(['validators:generatorKeyRegistration', 'validators:blsKeyRegistration', 'pos:validatorRegistered']);
    const [registered] = moduleEvents(harness, 'pos');
    expect(registered?.topics.slice(1)).toEqual([sender.address]);
    expect(decodeEvent(validatorRegisteredDataSchema, registered!.data)).toEqual({ address: sender.address, name: 'oracle' });
  });

  it('execute fails when the fee left does not cover the registration fee', () => {
    const params = { name: 'oracle', ...keys };
    harness.contextStore.set(AVAILABLE_FEE_KEY, FEE - 1n);
    expect(runCommand(harness, command(), transaction(params), params).error?.message).toBe('Transaction ran out of fee.');
    expect(validatorStore.get(harness.state, sender.address)).toBeUndefined();
  });

  it('execute fails on a BLS key already registered (the validators module keeps its failure event)', () => {
    const params = { name: 'oracle', ...keys };
    harness.contextStore.set(AVAILABLE_FEE_KEY, FEE);
    setup.validators.registerValidatorKeys(
      harness.commandExecuteContext(transaction(params), params),
      account('x').address,
      keys.blsKey,
      keys.generatorKey,
      keys.proofOfPossession,
    );
    harness.commit();
    harness.contextStore.set(AVAILABLE_FEE_KEY, FEE);
    expect(runCommand(harness, command(), transaction(params), params).ok).toBe(false);
    expect(harness.events.events().map((e) => `${e.module}:${e.name}`)).toEqual(['validators:blsKeyRegistration']);
    expect(validatorStore.get(harness.state, sender.address)).toBeUndefined();
  });

  it('execute fails on a proof of possession that does not match the key', () => {
    const params = { name: 'oracle', ...keys, proofOfPossession: Buffer.alloc(96, 1) };
    harness.contextStore.set(AVAILABLE_FEE_KEY, FEE);
    expect(runCommand(harness, command(), transaction(params), params).ok).toBe(false);
  });
});

describe('pos:changeCommission', () => {
  const validator = account('commission-validator');
  let setup: PosSetup;
  let harness: ModuleHarness;
  const command = () => posCommand<ChangeCommissionParams>(setup.pos, 'changeCommission');
  const verify = (newCommission: number) => {
    const params = { newCommission };
    const tx = posTransaction('changeCommission', changeCommissionParamsSchema, params, validator);
    return failed(command().verify!(harness.commandVerifyContext(tx, params)) as VerificationResult);
  };
  const execute = (newCommission: number) => {
    const params = { newCommission };
    return runCommand(harness, command(), posTransaction('changeCommission', changeCommissionParamsSchema, params, validator), params);
  };

  beforeEach(() => {
    // lisk-sdk defaults: increases of at most 500 every 241920 blocks.
    setup = createPos();
    harness = new ModuleHarness({ header: { height: 300_000 } });
  });

  it('verify: the sender must be a validator', () => {
    expect(verify(100)).toEqual({ status: VerifyStatus.FAIL, message: 'Transaction sender has not registered as a validator.' });
  });

  it('verify: increases at most maxCommissionIncreaseRate at a time', () => {
    addValidator(harness, validator.address, { commission: 1000, lastCommissionIncreaseHeight: 0 });
    expect(verify(1500).status).toBe(VerifyStatus.OK);
    expect(verify(1501)).toEqual({ status: VerifyStatus.FAIL, message: 'Invalid argument: Commission increase larger than 500.' });
  });

  it('verify: increases only commissionIncreasePeriod blocks after the last increase; decreases any time', () => {
    addValidator(harness, validator.address, { commission: 1000, lastCommissionIncreaseHeight: 300_000 - 241_919 });
    expect(verify(1001)).toEqual({
      status: VerifyStatus.FAIL,
      message: 'Can only increase the commission again 241920 blocks after the last commission increase.',
    });
    expect(verify(1000).status).toBe(VerifyStatus.OK);
    expect(verify(0).status).toBe(VerifyStatus.OK);
    addValidator(harness, validator.address, { commission: 1000, lastCommissionIncreaseHeight: 300_000 - 241_920 });
    expect(verify(1001).status).toBe(VerifyStatus.OK);
  });

  it('execute: sets the commission, restarts the increase period unless it went down, emits commissionChange', () => {
    addValidator(harness, validator.address, { commission: 1000, lastCommissionIncreaseHeight: 5 });
    execute(800);
    expect(validatorStore.get(harness.state, validator.address)).toMatchObject({ commission: 800, lastCommissionIncreaseHeight: 5 });
    execute(800);
    expect(validatorStore.get(harness.state, validator.address)).toMatchObject({ commission: 800, lastCommissionIncreaseHeight: 300_000 });
    const events = moduleEvents(harness, 'pos');
    expect(events.map((e) => e.name)).toEqual(['commissionChange', 'commissionChange']);
    expect(events[0]?.topics.slice(1)).toEqual([validator.address]);
    expect(decodeEvent(commissionChangeDataSchema, events[0]!.data)).toEqual({
      validatorAddress: validator.address,
      oldCommission: 1000,
      newCommission: 800,
    });
  });
});

describe('pos:updateGeneratorKey', () => {
  it('verify requires a pos validator; execute replaces the key in the validators module', () => {
    const setup = createPos();
    const harness = new ModuleHarness();
    const validator = account('key-validator');
    const command = posCommand<UpdateGeneratorKeyParams>(setup.pos, 'updateGeneratorKey');
    const params = { generatorKey: Buffer.alloc(32, 9) };
    const tx = posTransaction('updateGeneratorKey', updateGeneratorKeyParamsSchema, params, validator);
    expect(failed(command.verify!(harness.commandVerifyContext(tx, params)) as VerificationResult)).toEqual({
      status: VerifyStatus.FAIL,
      message: 'Validator substore must have an entry for the store key address',
    });
    addValidator(harness, validator.address);
    validatorKeysStore.set(harness.state, validator.address, { generatorKey: Buffer.alloc(32, 1), blsKey: Buffer.alloc(48, 2) });
    expect((command.verify!(harness.commandVerifyContext(tx, params)) as VerificationResult).status).toBe(VerifyStatus.OK);
    expect(runCommand(harness, command, tx, params).ok).toBe(true);
    expect(validatorKeysStore.get(harness.state, validator.address)).toEqual({
      generatorKey: Buffer.alloc(32, 9),
      blsKey: Buffer.alloc(48, 2),
    });
    expect(harness.events.events().map((e) => `${e.module}:${e.name}`)).toEqual(['validators:generatorKeyRegistration']);
  });
});

describe('pos:claimRewards', () => {
  const staker = account('claimer');
  const validatorA = account('claim-a');
  const validatorB = account('claim-b');
  let setup: PosSetup;
  let harness: ModuleHarness;
  const claim = () => {
    const command = posCommand<Record<string, never>>(setup.pos, 'claimRewards');
    return runCommand(harness, command, posTransaction('claimRewards', emptyParamsSchema, {}, staker), {});
  };

  beforeEach(() => {
    setup = createPos();
    harness = new ModuleHarness({ header: { height: 20 } });
  });

  it('fails for an address that never staked', () => {
    expect(claim().ok).toBe(false);
  });

  it('pays every stake its share (skipping self-stakes), then settles each stake at the validator coefficients', () => {
    const half = q96ToBytes(q96(1) / 2n);
    const quarter = q96ToBytes(q96(1) / 4n);
    addValidator(harness, validatorA.address, { totalStake: 100n * LSK, sharingCoefficients: [{ tokenID: TOKEN_ID, coefficient: half }] });
    addValidator(harness, validatorB.address, {
      totalStake: 40n * LSK,
      sharingCoefficients: [{ tokenID: TOKEN_ID, coefficient: quarter }],
    });
    addValidator(harness, staker.address, {
      totalStake: 20n * LSK,
      selfStake: 20n * LSK,
      sharingCoefficients: [{ tokenID: TOKEN_ID, coefficient: half }],
    });
    const [first, second] = [validatorA.address, validatorB.address].sort((a, b) => a.compare(b));
    stakerStore.set(harness.state, staker.address, {
      stakes: [
        { validatorAddress: first!, amount: 40n * LSK, sharingCoefficients: [] },
        { validatorAddress: second!, amount: 40n * LSK, sharingCoefficients: [] },
        { validatorAddress: staker.address, amount: 20n * LSK, sharingCoefficients: [] },
      ].sort((a, b) => a.validatorAddress.compare(b.validatorAddress)),
      pendingUnlocks: [],
    });
    setup.token.setAccount(harness, validatorA.address, { availableBalance: 0n, lockedBalances: [{ module: 'pos', amount: 100n * LSK }] });
    setup.token.setAccount(harness, validatorB.address, { availableBalance: 0n, lockedBalances: [{ module: 'pos', amount: 100n * LSK }] });
    expect(claim().ok).toBe(true);
    expect(setup.token.available(harness, staker.address)).toBe(20n * LSK + 10n * LSK);
    const assigned = moduleEvents(harness, 'pos').map((e) =>
      decodeEvent<{ validatorAddress: Buffer; amount: bigint }>(rewardsAssignedDataSchema, e.data),
    );
    expect(assigned.map((a) => a.amount).sort()).toEqual([10n * LSK, 20n * LSK]);
    for (const stake of stakerStore.getOrThrow(harness.state, staker.address).stakes) {
      expect(stake.sharingCoefficients).toEqual(validatorStore.getOrThrow(harness.state, stake.validatorAddress).sharingCoefficients);
    }
    // A second claim right away pays nothing.
    harness.commit();
    expect(claim().ok).toBe(true);
    expect(moduleEvents(harness, 'pos')).toHaveLength(0);
  });
});

describe('pos:unlock timing', () => {
  const staker = account('unlocker');
  const validator = account('unlock-validator');
  // Dev-chain windows: stakes wait 30 blocks, self-stakes 60; punishment windows are lisk's defaults.
  const config = { lockingPeriodStaking: 30, lockingPeriodSelfStaking: 60 };
  let setup: PosSetup;

  const unlockAt = (
    height: number,
    certified: number,
    unlocks: { validatorAddress: Buffer; amount: bigint; unstakeHeight: number }[],
    sender = staker,
    pomHeights: number[] = [],
  ) => {
    const harness = new ModuleHarness({
      header: { height, aggregateCommit: { height: certified, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) } },
    });
    setGenesisData(harness, { height: 0 });
    addValidator(harness, validator.address, { reportMisbehaviorHeights: pomHeights });
    const total = unlocks.reduce((sum, u) => sum + u.amount, 0n);
    setup.token.setAccount(harness, sender.address, { availableBalance: 0n, lockedBalances: [{ module: 'pos', amount: total }] });
    stakerStore.set(harness.state, sender.address, { stakes: [], pendingUnlocks: unlocks });
    const command = posCommand<Record<string, never>>(setup.pos, 'unlock');
    const outcome = runCommand(harness, command, posTransaction('unlock', emptyParamsSchema, {}, sender), {});
    return {
      ok: outcome.ok,
      error: outcome.error?.message,
      available: setup.token.available(harness, sender.address),
      pending: stakerStore.get(harness.state, sender.address)?.pendingUnlocks.map((u) => u.amount),
    };
  };

  beforeEach(() => {
    setup = createPos(config);
  });

  it('fails for an address with no staker entry', () => {
    const harness = new ModuleHarness({ header: { height: 10 } });
    setGenesisData(harness);
    expect(runCommand(harness, posCommand(setup.pos, 'unlock'), posTransaction('unlock', emptyParamsSchema, {}, staker), {}).ok).toBe(
      false,
    );
  });

  it('a stake unlocks lockingPeriodStaking blocks after the unstake, once a certificate covers two rounds later', () => {
    const unlock = { validatorAddress: validator.address, amount: 10n * LSK, unstakeHeight: 50 };
    // Round length 103: the end of the round of 50 + 206 is 309.
    expect(unlockAt(79, 1000, [unlock])).toMatchObject({ ok: false, error: 'No eligible staker data was found for unlocking' });
    expect(unlockAt(80, 1000, [unlock])).toMatchObject({ ok: true, available: 10n * LSK, pending: [] });
    expect(unlockAt(400, 308, [unlock]).ok).toBe(false);
    expect(unlockAt(400, 309, [unlock]).ok).toBe(true);
  });

  it('a self-stake waits lockingPeriodSelfStaking blocks', () => {
    const selfUnlock = { validatorAddress: staker.address, amount: 10n * LSK, unstakeHeight: 50 };
    const setupSelf = (height: number) => {
      const harness = new ModuleHarness({
        header: { height, aggregateCommit: { height: 1000, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) } },
      });
      setGenesisData(harness);
      addValidator(harness, staker.address);
      setup.token.setAccount(harness, staker.address, { availableBalance: 0n, lockedBalances: [{ module: 'pos', amount: 10n * LSK }] });
      stakerStore.set(harness.state, staker.address, { stakes: [], pendingUnlocks: [selfUnlock] });
      return runCommand(harness, posCommand(setup.pos, 'unlock'), posTransaction('unlock', emptyParamsSchema, {}, staker), {}).ok;
    };
    expect(setupSelf(109)).toBe(false);
    expect(setupSelf(110)).toBe(true);
  });

  it('a punishment of the validator before the waiting period ended holds the unlock for punishmentWindowStaking', () => {
    const unlock = { validatorAddress: validator.address, amount: 10n * LSK, unstakeHeight: 50 };
    // Punished at 70 (< 50 + 30): locked until 70 + 241920.
    expect(unlockAt(1000, 1000, [unlock], staker, [70]).ok).toBe(false);
    expect(unlockAt(70 + 241_920, 300_000, [unlock], staker, [70]).ok).toBe(true);
    // Punished at 80 (= 50 + 30, after the waiting period): no effect.
    expect(unlockAt(1000, 1000, [unlock], staker, [80]).ok).toBe(true);
  });

  it('unlocks the eligible entries only and keeps the others in order', () => {
    const unlocks = [
      { validatorAddress: validator.address, amount: 7n * LSK, unstakeHeight: 900 },
      { validatorAddress: validator.address, amount: 5n * LSK, unstakeHeight: 50 },
    ];
    expect(unlockAt(1000, 1000, unlocks)).toMatchObject({ ok: true, available: 5n * LSK, pending: [7n * LSK] });
  });
});
