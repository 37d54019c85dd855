/**
 * pos:stake (lisk-sdk 6.1 pos/commands/stake.ts): verify checks in order, execute paths with
 * their events (validatorStaked with result codes, non-revertible on failure), the sent-stake
 * and pending-unlock limits, self-stakes, the eligible validators index, reward settlement.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import {
  StakeEventResult,
  eligibleValidatorKey,
  eligibleValidatorsStore,
  stakerStore,
  validatorStakedDataSchema,
  validatorStore,
  rewardsAssignedDataSchema,
} from '../../../../src/modules/pos/index.js';
import type { StakeParams } from '../../../../src/modules/pos/commands/stake.js';
import { stakeParamsSchema } from '../../../../src/modules/pos/schemas.js';
import { q96, q96ToBytes } from '../../../../src/modules/pos/q96.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import {
  TOKEN_ID,
  account,
  addValidator,
  createPos,
  decodeEvent,
  moduleEvents,
  posCommand,
  posTransaction,
  runCommand,
  type PosSetup,
} from './pos-test-kit.js';

const LSK = 100_000_000n;
const staker = account('staker');
const validatorA = account('validator-a');
const validatorB = account('validator-b');

describe('pos:stake', () => {
  let setup: PosSetup;
  let harness: ModuleHarness;
  const stake = () => posCommand<StakeParams>(setup.pos, 'stake');
  const tx = (stakes: StakeParams['stakes'], sender = staker) => ({
    tx: posTransaction('stake', stakeParamsSchema, { stakes }, sender),
    params: { stakes },
  });
  const verify = (stakes: StakeParams['stakes']) => {
    const { tx: transaction, params } = tx(stakes);
    return stake().verify!(harness.commandVerifyContext(transaction, params)) as { status: VerifyStatus; error?: Error };
  };
  const execute = (stakes: StakeParams['stakes'], sender = staker) => {
    const { tx: transaction, params } = tx(stakes, sender);
    return runCommand(harness, stake(), transaction, params);
  };

  beforeEach(() => {
    setup = createPos({ minWeightStandby: (1000n * LSK).toString() });
    harness = new ModuleHarness({ header: { height: 50 } });
    addValidator(harness, validatorA.address);
    addValidator(harness, validatorB.address);
    setup.token.credit(harness, staker.address, 100_000n * LSK);
    setup.token.credit(harness, validatorA.address, 100_000n * LSK);
  });

  describe('verify', () => {
    it('accepts up and down stakes that are multiples of 10 LSK', () => {
      expect(
        verify([
          { validatorAddress: validatorA.address, amount: 10n * LSK },
          { validatorAddress: validatorB.address, amount: -20n * LSK },
        ]).status,
      ).toBe(VerifyStatus.OK);
    });
    it('rejects a validator named twice (checked before the amount)', () => {
      const result = verify([
        { validatorAddress: validatorA.address, amount: 10n * LSK },
        { validatorAddress: validatorA.address, amount: 0n },
      ]);
      expect(result.status).toBe(VerifyStatus.FAIL);
      expect(result.error?.message).toBe('Validator address must be unique.');
    });
    it('rejects a zero amount', () => {
      expect(verify([{ validatorAddress: validatorA.address, amount: 0n }]).error?.message).toBe('Amount cannot be 0.');
    });
    it('rejects an amount that is not a multiple of baseStakeAmount, up or down', () => {
      expect(verify([{ validatorAddress: validatorA.address, amount: 15n * LSK }]).error?.message).toBe(
        'Amount should be multiple of 10 * 10^8.',
      );
      expect(verify([{ validatorAddress: validatorA.address, amount: -1n }]).error?.message).toBe(
        'Amount should be multiple of 10 * 10^8.',
      );
    });
    it('rejects more than maxNumberSentStakes upstakes or downstakes in one transaction', () => {
      const addresses = Array.from({ length: 11 }, (_, i) => account(`many-${i}`).address);
      expect(verify(addresses.map((validatorAddress) => ({ validatorAddress, amount: 10n * LSK }))).error?.message).toBe(
        'Upstake can only be casted up to 10.',
      );
      expect(verify(addresses.map((validatorAddress) => ({ validatorAddress, amount: -10n * LSK }))).error?.message).toBe(
        'Downstake can only be casted up to 10.',
      );
      expect(verify(addresses.slice(0, 10).map((validatorAddress) => ({ validatorAddress, amount: 10n * LSK }))).status).toBe(
        VerifyStatus.OK,
      );
    });
  });

  describe('execute', () => {
    it('upstakes: locks the tokens, records the stake and the validator total, emits validatorStaked', () => {
      expect(execute([{ validatorAddress: validatorA.address, amount: 100n * LSK }]).ok).toBe(true);
      expect(setup.token.getLockedAmount(harness, staker.address, TOKEN_ID, 'pos')).toBe(100n * LSK);
      expect(stakerStore.get(harness.state, staker.address)).toEqual({
        stakes: [{ validatorAddress: validatorA.address, amount: 100n * LSK, sharingCoefficients: [] }],
        pendingUnlocks: [],
      });
      expect(validatorStore.get(harness.state, validatorA.address)).toMatchObject({ totalStake: 100n * LSK, selfStake: 0n });
      const [event] = moduleEvents(harness, 'pos');
      expect(event?.name).toBe('validatorStaked');
      expect(event?.topics.slice(1)).toEqual([staker.address, validatorA.address]);
      expect(decodeEvent(validatorStakedDataSchema, event!.data)).toEqual({
        senderAddress: staker.address,
        validatorAddress: validatorA.address,
        amount: 100n * LSK,
        result: StakeEventResult.SUCCESSFUL,
      });
    });

    it('downstakes: reduces the stake, creates a pending unlock at the current height, keeps the tokens locked', () => {
      execute([{ validatorAddress: validatorA.address, amount: 100n * LSK }]);
      expect(execute([{ validatorAddress: validatorA.address, amount: -30n * LSK }]).ok).toBe(true);
      expect(stakerStore.get(harness.state, staker.address)).toEqual({
        stakes: [{ validatorAddress: validatorA.address, amount: 70n * LSK, sharingCoefficients: [] }],
        pendingUnlocks: [{ validatorAddress: validatorA.address, amount: 30n * LSK, unstakeHeight: 50 }],
      });
      expect(setup.token.getLockedAmount(harness, staker.address, TOKEN_ID, 'pos')).toBe(100n * LSK);
      expect(validatorStore.get(harness.state, validatorA.address)?.totalStake).toBe(70n * LSK);
      // Unstaking everything removes the stake entry.
      execute([{ validatorAddress: validatorA.address, amount: -70n * LSK }]);
      expect(stakerStore.get(harness.state, staker.address)?.stakes).toEqual([]);
      expect(stakerStore.get(harness.state, staker.address)?.pendingUnlocks.map((u) => u.amount)).toEqual([70n * LSK, 30n * LSK]);
    });

    it('applies downstakes before upstakes (ascending amounts)', () => {
      execute([{ validatorAddress: validatorA.address, amount: 100n * LSK }]);
      harness.commit();
      execute([
        { validatorAddress: validatorB.address, amount: 20n * LSK },
        { validatorAddress: validatorA.address, amount: -10n * LSK },
      ]);
      const amounts = moduleEvents(harness, 'pos').map((e) => decodeEvent<{ amount: bigint }>(validatorStakedDataSchema, e.data).amount);
      expect(amounts).toEqual([-10n * LSK, 20n * LSK]);
    });

    it('self-stakes raise selfStake too and make the validator eligible once its weight reaches minWeightStandby', () => {
      execute([{ validatorAddress: validatorA.address, amount: 200n * LSK }], validatorA);
      expect(validatorStore.get(harness.state, validatorA.address)).toMatchObject({ selfStake: 200n * LSK, totalStake: 200n * LSK });
      // Weight 200 LSK < 1000 LSK: not eligible.
      expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 })).toHaveLength(0);
      execute([{ validatorAddress: validatorA.address, amount: 2000n * LSK }]);
      // Weight = min(10 × 200, 2200) = 2000 LSK.
      expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 }).map((e) => e.key)).toEqual([
        eligibleValidatorKey(validatorA.address, 2000n * LSK),
      ]);
      execute([{ validatorAddress: validatorA.address, amount: -2000n * LSK }]);
      expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 })).toHaveLength(0);
    });

    it('fails on an unregistered validator with a surviving validatorStaked result 1', () => {
      const stranger = account('stranger').address;
      const outcome = execute([{ validatorAddress: stranger, amount: 10n * LSK }]);
      expect(outcome.error?.message).toBe('Invalid stake: no registered validator with the specified address');
      const events = moduleEvents(harness, 'pos');
      expect(events).toHaveLength(1);
      expect(decodeEvent<{ result: number }>(validatorStakedDataSchema, events[0]!.data).result).toBe(
        StakeEventResult.FAILED_NON_REGISTERED_VALIDATOR,
      );
      expect(stakerStore.get(harness.state, staker.address)).toBeUndefined();
    });

    it('fails a downstake without a stake or above it with result 2, reverting earlier entries', () => {
      execute([{ validatorAddress: validatorA.address, amount: 10n * LSK }]);
      harness.commit();
      expect(execute([{ validatorAddress: validatorB.address, amount: -10n * LSK }]).error?.message).toBe(
        'Invalid unstake: Cannot cast downstake to validator who is not upstaked.',
      );
      expect(
        execute([
          { validatorAddress: validatorB.address, amount: 10n * LSK },
          { validatorAddress: validatorA.address, amount: -20n * LSK },
        ]).error?.message,
      ).toBe('Invalid unstake: The unstake amount exceeds the staked amount for this validator.');
      const results = moduleEvents(harness, 'pos').map((e) => decodeEvent<{ result: number }>(validatorStakedDataSchema, e.data).result);
      expect(results).toEqual([2, 2]);
      expect(stakerStore.get(harness.state, staker.address)?.stakes).toHaveLength(1);
    });

    it('fails when pending unlocks would exceed maxNumberPendingUnlocks (result 3)', () => {
      setup = createPos({ maxNumberPendingUnlocks: 2 });
      execute([{ validatorAddress: validatorA.address, amount: 100n * LSK }]);
      execute([{ validatorAddress: validatorA.address, amount: -10n * LSK }]);
      execute([{ validatorAddress: validatorA.address, amount: -10n * LSK }]);
      harness.commit();
      const outcome = execute([{ validatorAddress: validatorA.address, amount: -10n * LSK }]);
      expect(outcome.error?.message).toBe('Pending unlocks cannot exceed 2.');
      const [event] = moduleEvents(harness, 'pos');
      expect(decodeEvent<{ result: number }>(validatorStakedDataSchema, event!.data).result).toBe(
        StakeEventResult.FAILED_TOO_MANY_PENDING_UNLOCKS,
      );
    });

    it('fails an 11th staked validator (maxNumberSentStakes 10) with result 4; the lock is reverted', () => {
      const validators = Array.from({ length: 11 }, (_, i) => account(`ten-${i}`).address);
      for (const address of validators) addValidator(harness, address);
      expect(execute(validators.slice(0, 10).map((validatorAddress) => ({ validatorAddress, amount: 10n * LSK }))).ok).toBe(true);
      harness.commit();
      const outcome = execute([{ validatorAddress: validators[10]!, amount: 10n * LSK }]);
      expect(outcome.error?.message).toBe('Sender can only stake upto 10.');
      const events = harness.events.events();
      // The token lock was reverted with the command; the failed-stake event survived.
      expect(events.map((e) => `${e.module}:${e.name}`)).toEqual(['pos:validatorStaked']);
      expect(decodeEvent<{ result: number }>(validatorStakedDataSchema, events[0]!.data).result).toBe(
        StakeEventResult.FAILED_TOO_MANY_SENT_STAKES,
      );
      expect(setup.token.getLockedAmount(harness, staker.address, TOKEN_ID, 'pos')).toBe(100n * LSK);
      expect(stakerStore.get(harness.state, staker.address)?.stakes).toHaveLength(10);
    });

    it('keeps stakes sorted by validator address', () => {
      const [first, second] = [validatorA.address, validatorB.address].sort((a, b) => b.compare(a));
      execute([{ validatorAddress: first!, amount: 10n * LSK }]);
      execute([{ validatorAddress: second!, amount: 10n * LSK }]);
      expect(stakerStore.get(harness.state, staker.address)?.stakes.map((s) => s.validatorAddress)).toEqual([second, first]);
    });

    it('settles earned rewards when a stake changes and restarts it at the current coefficient', () => {
      execute([{ validatorAddress: validatorA.address, amount: 100n * LSK }]);
      // The validator's coefficient grew by 0.5 per unit of stake; its rewards are locked under pos.
      const coefficient = q96ToBytes(q96(1) / 2n);
      const validator = validatorStore.getOrThrow(harness.state, validatorA.address);
      validatorStore.set(harness.state, validatorA.address, { ...validator, sharingCoefficients: [{ tokenID: TOKEN_ID, coefficient }] });
      setup.token.lock(
        harness.commandExecuteContext(posTransaction('stake', stakeParamsSchema, { stakes: [] }, validatorA), {}),
        validatorA.address,
        'pos',
        TOKEN_ID,
        50n * LSK,
      );
      harness.commit();
      const before = setup.token.available(harness, staker.address);
      expect(execute([{ validatorAddress: validatorA.address, amount: 10n * LSK }]).ok).toBe(true);
      expect(setup.token.available(harness, staker.address)).toBe(before - 10n * LSK + 50n * LSK);
      const [assigned, staked] = moduleEvents(harness, 'pos');
      expect(assigned?.name).toBe('rewardsAssigned');
      expect(assigned?.topics.slice(1)).toEqual([staker.address]);
      expect(decodeEvent(rewardsAssignedDataSchema, assigned!.data)).toEqual({
        stakerAddress: staker.address,
        validatorAddress: validatorA.address,
        tokenID: TOKEN_ID,
        amount: 50n * LSK,
      });
      expect(staked?.name).toBe('validatorStaked');
      expect(stakerStore.get(harness.state, staker.address)?.stakes[0]?.sharingCoefficients).toEqual([{ tokenID: TOKEN_ID, coefficient }]);
    });
  });
});
