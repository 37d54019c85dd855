/**
 * pos:reportMisbehavior (lisk-sdk 6.1 pos/commands/report_misbehavior.ts) with real signed
 * headers: every verify check in lisk-sdk's order (throwing ones and the FAIL result), the
 * contradiction rule (docs/protocol/bft.md), punishment (reward to the reporter out of the
 * self-stake, misbehavior heights, eligible index), and banning after reportMisbehaviorLimitBanned.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { BlockHeader, type BlockHeaderProps } from '../../../../src/chain/block-header.js';
import { addressFromPublicKey, keyPairFromSeed, MESSAGE_TAG_BLOCK_HEADER, sha256, signData } from '../../../../src/crypto/index.js';
import { VerifyStatus, type VerificationResult } from '../../../../src/modules/base/index.js';
import {
  eligibleValidatorKey,
  eligibleValidatorsStore,
  stakerStore,
  validatorBannedDataSchema,
  validatorPunishedDataSchema,
  validatorStore,
} from '../../../../src/modules/pos/index.js';
import type { ReportMisbehaviorParams } from '../../../../src/modules/pos/commands/report-misbehavior.js';
import { reportMisbehaviorParamsSchema } from '../../../../src/modules/pos/schemas.js';
import { validatorKeysStore } from '../../../../src/modules/validators/stores.js';
import { DEV_CHAIN_ID, ModuleHarness } from '../../../support/module-harness.js';
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
const keys = keyPairFromSeed(sha256(Buffer.from('misbehaving generator')));
const generator = addressFromPublicKey(keys.publicKey);
const otherKeys = keyPairFromSeed(sha256(Buffer.from('other generator')));
const reporter = account('reporter');
const CURRENT_HEIGHT = 1000;

function signedHeader(fields: Partial<BlockHeaderProps>, privateKey = keys.privateKey): Buffer {
  const unsigned = new BlockHeader({
    version: 2,
    timestamp: 1_700_000_000 + (fields.height ?? 990) * 10,
    height: 990,
    previousBlockID: Buffer.alloc(32, 1),
    generatorAddress: generator,
    transactionRoot: sha256(Buffer.alloc(0)),
    assetRoot: Buffer.alloc(32, 2),
    eventRoot: Buffer.alloc(32, 3),
    stateRoot: Buffer.alloc(32, 4),
    maxHeightPrevoted: 900,
    maxHeightGenerated: 800,
    impliesMaxPrevotes: true,
    validatorsHash: Buffer.alloc(32, 5),
    aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
    signature: Buffer.alloc(0),
    ...fields,
  });
  const signature = signData(MESSAGE_TAG_BLOCK_HEADER, DEV_CHAIN_ID, unsigned.signingBytes(), privateKey);
  return unsigned.with({ signature }).bytes;
}

describe('pos:reportMisbehavior', () => {
  let setup: PosSetup;
  let harness: ModuleHarness;
  const command = () => posCommand<ReportMisbehaviorParams>(setup.pos, 'reportMisbehavior');
  const tx = (params: ReportMisbehaviorParams) => posTransaction('reportMisbehavior', reportMisbehaviorParamsSchema, params, reporter);
  const verify = (params: ReportMisbehaviorParams) =>
    command().verify!(harness.commandVerifyContext(tx(params), params)) as VerificationResult;
  const execute = (params: ReportMisbehaviorParams) => runCommand(harness, command(), tx(params), params);

  // Double forging: same height and prevote height, different content.
  const contradicting = (): ReportMisbehaviorParams => ({
    header1: signedHeader({ height: 990 }),
    header2: signedHeader({ height: 990, stateRoot: Buffer.alloc(32, 9) }),
  });

  beforeEach(() => {
    setup = createPos({ minWeightStandby: (100n * LSK).toString() });
    harness = new ModuleHarness({ header: { height: CURRENT_HEIGHT } });
    addValidator(harness, generator, { selfStake: 500n * LSK, totalStake: 800n * LSK });
    validatorKeysStore.set(harness.state, generator, { generatorKey: keys.publicKey, blsKey: Buffer.alloc(48, 1) });
    stakerStore.set(harness.state, generator, {
      stakes: [{ validatorAddress: generator, amount: 500n * LSK, sharingCoefficients: [] }],
      pendingUnlocks: [],
    });
    eligibleValidatorsStore.set(harness.state, eligibleValidatorKey(generator, 800n * LSK), { lastReportMisbehaviorHeight: 0 });
    setup.token.setAccount(harness, generator, { availableBalance: 0n, lockedBalances: [{ module: 'pos', amount: 500n * LSK }] });
  });

  describe('verify', () => {
    it('accepts two contradicting headers of one validator', () => {
      expect(verify(contradicting()).status).toBe(VerifyStatus.OK);
    });

    it('fails (does not throw) for the same header twice and for headers that do not contradict', () => {
      const header = signedHeader({ height: 990 });
      expect(verify({ header1: header, header2: header })).toMatchObject({ status: VerifyStatus.FAIL });
      // (100,90,80) then (105,100,85): the later one acknowledges the earlier (lisk-sdk areDistinctHeadersContradicting).
      const result = verify({
        header1: signedHeader({ height: 990, maxHeightGenerated: 900, maxHeightPrevoted: 800 }),
        header2: signedHeader({ height: 995, maxHeightGenerated: 990, maxHeightPrevoted: 805 }),
      });
      expect(result.status).toBe(VerifyStatus.FAIL);
      expect(result.error?.message).toBe('BlockHeaders are not contradicting as per BFT violation rules.');
    });

    it('accepts the BFT contradictions: prevote decrease and unacknowledged earlier block', () => {
      expect(
        verify({
          header1: signedHeader({ height: 990, maxHeightGenerated: 900, maxHeightPrevoted: 850 }),
          header2: signedHeader({ height: 995, maxHeightGenerated: 990, maxHeightPrevoted: 800 }),
        }).status,
      ).toBe(VerifyStatus.OK);
      expect(
        verify({
          header1: signedHeader({ height: 990, maxHeightGenerated: 900, maxHeightPrevoted: 800 }),
          header2: signedHeader({ height: 995, maxHeightGenerated: 950, maxHeightPrevoted: 805 }),
        }).status,
      ).toBe(VerifyStatus.OK);
    });

    it('throws for headers of different generators', () => {
      const other = addressFromPublicKey(otherKeys.publicKey);
      expect(() => verify({ header1: signedHeader({}), header2: signedHeader({ generatorAddress: other }, otherKeys.privateKey) })).toThrow(
        'Different generator address never contradict to each other.',
      );
    });

    it('throws for a generator that is no pos validator', () => {
      validatorStore.del(harness.state, generator);
      expect(() => verify(contradicting())).toThrow(/does not exist/);
    });

    it('throws for a header not signed with the generator key', () => {
      expect(() =>
        verify({ header1: signedHeader({}), header2: signedHeader({ stateRoot: Buffer.alloc(32, 7) }, otherKeys.privateKey) }),
      ).toThrow('Invalid block signature.');
    });

    it('throws for undecodable header bytes', () => {
      expect(() => verify({ header1: Buffer.from('00', 'hex'), header2: signedHeader({}) })).toThrow();
    });

    it('throws once a header is lockingPeriodSelfStaking blocks old (or ahead)', () => {
      harness.header = { ...harness.header, height: 990 + 241_920 };
      expect(() => verify(contradicting())).toThrow('Locking period has expired.');
      harness.header = { ...harness.header, height: 990 + 241_919 };
      expect(verify(contradicting()).status).toBe(VerifyStatus.OK);
    });

    it('throws while the validator is still punished (punishmentWindowSelfStaking) and when banned', () => {
      const validator = validatorStore.getOrThrow(harness.state, generator);
      validatorStore.set(harness.state, generator, { ...validator, reportMisbehaviorHeights: [CURRENT_HEIGHT - 1] });
      expect(() => verify(contradicting())).toThrow('Validator is already punished.');
      validatorStore.set(harness.state, generator, { ...validator, isBanned: true });
      expect(() => verify(contradicting())).toThrow('Validator is already banned.');
    });
  });

  describe('execute', () => {
    it('punishes: records the height, pays the reporter out of the self-stake, lowers stakes and weight', () => {
      expect(execute(contradicting()).ok).toBe(true);
      const validator = validatorStore.getOrThrow(harness.state, generator);
      expect(validator).toMatchObject({
        reportMisbehaviorHeights: [CURRENT_HEIGHT],
        isBanned: false,
        selfStake: 499n * LSK,
        totalStake: 799n * LSK,
      });
      expect(stakerStore.getOrThrow(harness.state, generator).stakes[0]?.amount).toBe(499n * LSK);
      expect(setup.token.available(harness, reporter.address)).toBe(1n * LSK);
      expect(setup.token.getLockedAmount(harness, generator, TOKEN_ID, 'pos')).toBe(499n * LSK);
      expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 })).toEqual([
        { key: eligibleValidatorKey(generator, 799n * LSK), value: { lastReportMisbehaviorHeight: CURRENT_HEIGHT } },
      ]);
      const events = moduleEvents(harness, 'pos');
      expect(events.map((e) => e.name)).toEqual(['validatorPunished']);
      expect(events[0]?.topics.slice(1)).toEqual([generator]);
      expect(decodeEvent(validatorPunishedDataSchema, events[0]!.data)).toEqual({ address: generator, height: CURRENT_HEIGHT });
      expect(harness.events.events().map((e) => `${e.module}:${e.name}`)).toEqual([
        'pos:validatorPunished',
        'token:unlock',
        'token:transfer',
      ]);
    });

    it('bans at the reportMisbehaviorLimitBanned-th report (validatorBanned, out of the eligible index)', () => {
      const validator = validatorStore.getOrThrow(harness.state, generator);
      validatorStore.set(harness.state, generator, { ...validator, reportMisbehaviorHeights: [10, 20, 30, 40] });
      expect(execute(contradicting()).ok).toBe(true);
      expect(validatorStore.getOrThrow(harness.state, generator)).toMatchObject({
        isBanned: true,
        reportMisbehaviorHeights: [10, 20, 30, 40, CURRENT_HEIGHT],
      });
      const events = moduleEvents(harness, 'pos');
      expect(events.map((e) => e.name)).toEqual(['validatorPunished', 'validatorBanned']);
      expect(decodeEvent(validatorBannedDataSchema, events[1]!.data)).toEqual({ address: generator, height: CURRENT_HEIGHT });
      expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 })).toEqual([]);
    });

    it('takes at most the self-stake as reward', () => {
      const validator = validatorStore.getOrThrow(harness.state, generator);
      validatorStore.set(harness.state, generator, { ...validator, selfStake: 50_000_000n, totalStake: 300n * LSK });
      stakerStore.set(harness.state, generator, {
        stakes: [{ validatorAddress: generator, amount: 50_000_000n, sharingCoefficients: [] }],
        pendingUnlocks: [],
      });
      expect(execute(contradicting()).ok).toBe(true);
      expect(setup.token.available(harness, reporter.address)).toBe(50_000_000n);
      expect(stakerStore.getOrThrow(harness.state, generator).stakes[0]?.amount).toBe(0n);
    });

    it('fails, as lisk-sdk does, for a validator without self-stake', () => {
      const validator = validatorStore.getOrThrow(harness.state, generator);
      validatorStore.set(harness.state, generator, { ...validator, selfStake: 0n, totalStake: 300n * LSK });
      stakerStore.set(harness.state, generator, { stakes: [], pendingUnlocks: [] });
      expect(execute(contradicting()).ok).toBe(false);
      expect(validatorStore.getOrThrow(harness.state, generator).reportMisbehaviorHeights).toEqual([]);
      expect(harness.events.events()).toHaveLength(0);
    });
  });
});
