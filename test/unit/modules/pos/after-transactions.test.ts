/**
 * The pos block hook (lisk-sdk 6.1 pos/module.ts afterTransactionsExecute): missed-block
 * bookkeeping and fail-safe banning after failSafeMissedBlocks, the stake-weight snapshot at the
 * end of each round, and the next round's validator set: bootstrap transition (elected plus
 * init validators at the average weight), full selection with two standby validators picked
 * with the random seeds, shuffling and thresholds.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../src/crypto/index.js';
import {
  EMPTY_KEY,
  eligibleValidatorKey,
  eligibleValidatorsStore,
  previousTimestampStore,
  roundKey,
  snapshotStore,
  validatorStore,
  type ValidatorWeight,
} from '../../../../src/modules/pos/index.js';
import { shuffleValidatorList } from '../../../../src/modules/pos/shuffle.js';
import { validatorRevealsStore } from '../../../../src/modules/random/stores.js';
import { validatorKeysStore, validatorsParamsStore } from '../../../../src/modules/validators/stores.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { account, addValidator, createPos, setGenesisData, type PosSetup } from './pos-test-kit.js';

const LSK = 100_000_000n;
const BLOCK_TIME = 10;
const T0 = 1_700_000_000;

const addresses = Array.from({ length: 12 }, (_, i) => account(`hook-${i}`).address).sort((a, b) => a.compare(b));

function setParams(harness: ModuleHarness, validators: Buffer[]): void {
  validatorsParamsStore.set(harness.state, EMPTY_KEY, {
    preCommitThreshold: 1n,
    certificateThreshold: 1n,
    validators: validators.map((address) => ({ address, bftWeight: 1n, generatorKey: Buffer.alloc(32), blsKey: Buffer.alloc(48) })),
  });
}

function setReveals(harness: ModuleHarness, upTo: number): void {
  validatorRevealsStore.set(harness.state, EMPTY_KEY, {
    validatorReveals: Array.from({ length: upTo + 1 }, (_, height) => ({
      generatorAddress: addresses[height % addresses.length]!,
      seedReveal: sha256(Buffer.from(`reveal ${height}`)).subarray(0, 16),
      height,
      valid: height % 3 !== 0,
    })),
  });
}

describe('pos afterTransactionsExecute: productivity and fail-safe bans', () => {
  let setup: PosSetup;
  let harness: ModuleHarness;
  const [a, b, c] = addresses as [Buffer, Buffer, Buffer];
  const baseSlot = T0 / BLOCK_TIME;

  // Epoch slots (slot = ⌊timestamp / blockTime⌋): slot s belongs to [a, b, c][s mod 3].
  const slotOwner = (slot: number) => [a, b, c][slot % 3]!;
  /** The first slot count after T0 whose owner is `generator`, and who missed the slots between. */
  const nextBlockOf = (generator: Buffer) => {
    let later = 2;
    while (!slotOwner(baseSlot + later).equals(generator)) later += 1;
    const missed = new Map<string, number>();
    for (let k = 1; k < later; k += 1) {
      const owner = slotOwner(baseSlot + k).toString('hex');
      missed.set(owner, (missed.get(owner) ?? 0) + 1);
    }
    return { later, missed: (address: Buffer) => missed.get(address.toString('hex')) ?? 0 };
  };
  const runBlock = (height: number, generator: Buffer) => {
    const { later, missed } = nextBlockOf(generator);
    harness.header = { ...harness.header, height, timestamp: T0 + later * BLOCK_TIME, generatorAddress: generator };
    setup.pos.afterTransactionsExecute(harness.blockExecuteContext('after'));
    return missed;
  };
  const setMisses = (address: Buffer, consecutiveMissedBlocks: number, lastGeneratedHeight: number) => {
    const validator = validatorStore.getOrThrow(harness.state, address);
    validatorStore.set(harness.state, address, { ...validator, consecutiveMissedBlocks, lastGeneratedHeight });
  };

  beforeEach(() => {
    setup = createPos({}, BLOCK_TIME);
    harness = new ModuleHarness({ header: { height: 50 } });
    setGenesisData(harness);
    setParams(harness, [a, b, c]);
    for (const address of [a, b, c]) {
      addValidator(harness, address, { lastGeneratedHeight: 1, selfStake: 200n * LSK, totalStake: 2000n * LSK });
      eligibleValidatorsStore.set(harness.state, eligibleValidatorKey(address, 2000n * LSK), { lastReportMisbehaviorHeight: 0 });
    }
    previousTimestampStore.set(harness.state, EMPTY_KEY, { timestamp: T0 });
  });

  it('adds the slots missed between the previous and this block, resets the generator, stores the timestamp', () => {
    setMisses(a, 3, 1);
    setMisses(c, 7, 1);
    const missed = runBlock(50, c);
    expect(missed(a) + missed(b)).toBeGreaterThan(0);
    expect(validatorStore.getOrThrow(harness.state, a).consecutiveMissedBlocks).toBe(3 + missed(a));
    expect(validatorStore.getOrThrow(harness.state, b).consecutiveMissedBlocks).toBe(missed(b));
    expect(validatorStore.getOrThrow(harness.state, c)).toMatchObject({ consecutiveMissedBlocks: 0, lastGeneratedHeight: 50 });
    expect(previousTimestampStore.getOrThrow(harness.state, EMPTY_KEY).timestamp).toBe(harness.header.timestamp);
    expect(harness.events.events()).toHaveLength(0);
  });

  it('bans (silently) a validator over failSafeMissedBlocks that has not generated for failSafeInactiveWindow', () => {
    // Defaults: failSafeMissedBlocks 50, failSafeInactiveWindow 120960.
    const height = 1 + 120_960 + 1;
    const { missed } = nextBlockOf(c);
    expect(missed(a)).toBeGreaterThan(0);
    expect(missed(b)).toBeGreaterThan(0);
    setMisses(a, 50, 1); // inactive since height 1: banned once over 50
    setMisses(b, 50, height - 120_960); // generated exactly a window ago: not yet
    runBlock(height, c);
    expect(validatorStore.getOrThrow(harness.state, a)).toMatchObject({ consecutiveMissedBlocks: 50 + missed(a), isBanned: true });
    expect(validatorStore.getOrThrow(harness.state, b)).toMatchObject({ consecutiveMissedBlocks: 50 + missed(b), isBanned: false });
    expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 }).map((e) => e.key.subarray(8))).not.toContainEqual(a);
    expect(eligibleValidatorsStore.iterate(harness.state, { keyLength: 28 })).toHaveLength(2);
    expect(harness.events.events()).toHaveLength(0);
  });

  it('does not ban at exactly failSafeMissedBlocks misses', () => {
    const height = 200_000;
    const { missed } = nextBlockOf(c);
    setMisses(a, 50 - missed(a), 1);
    runBlock(height, c);
    expect(validatorStore.getOrThrow(harness.state, a)).toMatchObject({ consecutiveMissedBlocks: 50, isBanned: false });
  });
});

describe('pos afterTransactionsExecute: snapshots', () => {
  it('takes the eligible validators by descending weight for the round after next, skipping recently punished ones', () => {
    const setup = createPos({}, BLOCK_TIME);
    const harness = new ModuleHarness({ header: { height: 103, timestamp: T0 + 10, generatorAddress: addresses[0]! } });
    setGenesisData(harness, { initRounds: 3 });
    setParams(harness, [addresses[0]!]);
    addValidator(harness, addresses[0]!);
    previousTimestampStore.set(harness.state, EMPTY_KEY, { timestamp: T0 });
    const weights: [Buffer, bigint, number][] = [
      [addresses[1]!, 3000n * LSK, 0],
      [addresses[2]!, 5000n * LSK, 0],
      [addresses[3]!, 4000n * LSK, 50], // reported at 50: within punishmentWindowSelfStaking of 104
      [addresses[4]!, 5000n * LSK, 0],
    ];
    for (const [address, weight, lastReport] of weights) {
      eligibleValidatorsStore.set(harness.state, eligibleValidatorKey(address, weight), { lastReportMisbehaviorHeight: lastReport });
    }
    for (const round of [0, 1, 2, 3]) snapshotStore.set(harness.state, roundKey(round), { validatorWeightSnapshot: [] });
    setup.pos.afterTransactionsExecute(harness.blockExecuteContext('after'));

    const [heavier, lighter] = [addresses[2]!, addresses[4]!].sort((x, y) => y.compare(x));
    expect(snapshotStore.getOrThrow(harness.state, roundKey(4)).validatorWeightSnapshot).toEqual([
      { address: heavier, weight: 5000n * LSK },
      { address: lighter, weight: 5000n * LSK },
      { address: addresses[1], weight: 3000n * LSK },
    ]);
    // Rounds up to 4 − 3 = 1 are deleted.
    expect(snapshotStore.iterate(harness.state, { keyLength: 4 }).map((e) => e.key.readUInt32BE(0))).toEqual([2, 3, 4]);
    // Still in the bootstrap rounds: no new validator set.
    expect(harness.nextValidators).toBeUndefined();
  });
});

describe('pos afterTransactionsExecute: validator selection at a round end', () => {
  // 5 active + 2 standby validators: rounds of 7 blocks; 1 bootstrap round.
  const config = { numberActiveValidators: 5, numberStandbyValidators: 2 };
  const initValidators = addresses.slice(0, 5);
  let setup: PosSetup;

  const roundEnd = (height: number, snapshot: ValidatorWeight[], nextRound: number) => {
    setup = createPos(config, BLOCK_TIME);
    const harness = new ModuleHarness({ header: { height, timestamp: T0 + 10, generatorAddress: addresses[0]! } });
    setGenesisData(harness, { initRounds: 1, initValidators });
    setParams(harness, [addresses[0]!]);
    for (const address of addresses) {
      addValidator(harness, address);
      validatorKeysStore.set(harness.state, address, {
        generatorKey: Buffer.alloc(32, 1),
        blsKey: Buffer.concat([sha256(address), Buffer.alloc(16)]),
      });
    }
    previousTimestampStore.set(harness.state, EMPTY_KEY, { timestamp: T0 });
    setReveals(harness, height - 1);
    snapshotStore.set(harness.state, roundKey(nextRound), { validatorWeightSnapshot: snapshot });
    setup.pos.afterTransactionsExecute(harness.blockExecuteContext('after'));
    return harness;
  };

  it('during the bootstrap transition elects by stake and fills with init validators at the average weight', () => {
    // Height 14 ends round 2: round 3 has 6 − 3 = 3 init slots and 2 elected ones.
    const snapshot = [
      { address: addresses[8]!, weight: 3500n * LSK },
      { address: addresses[1]!, weight: 1200n * LSK }, // also an init validator
      { address: addresses[9]!, weight: 1000n * LSK },
    ];
    const harness = roundEnd(14, snapshot, 3);
    const next = harness.nextValidators!;
    const seed1 = setup.random.getRandomBytes(harness, 15 - 10, 7);
    // Elected: weights ⌈3500/1000⌉ = 4, ⌈1200/1000⌉ = 2; average 3 for init validators 0, 2, 3 (1 is elected).
    const expected = shuffleValidatorList(seed1, [
      { address: addresses[8]!, weight: 4n },
      { address: addresses[1]!, weight: 2n },
      { address: addresses[0]!, weight: 3n },
      { address: addresses[2]!, weight: 3n },
      { address: addresses[3]!, weight: 3n },
    ]);
    expect(next.validators.map((v) => [v.address, v.bftWeight])).toEqual(expected.map((v) => [v.address, v.weight]));
    expect(next.precommitThreshold).toBe((2n * 15n) / 3n + 1n);
    expect(next.certificateThreshold).toBe(next.precommitThreshold);
    expect(validatorsParamsStore.getOrThrow(harness.state, EMPTY_KEY).validators).toHaveLength(5);
  });

  it('with an empty snapshot keeps the first init validators at weight 1', () => {
    const harness = roundEnd(14, [], 3);
    const next = harness.nextValidators!;
    expect(new Set(next.validators.map((v) => v.address.toString('hex')))).toEqual(
      new Set(initValidators.slice(0, 3).map((a) => a.toString('hex'))),
    );
    expect(next.validators.every((v) => v.bftWeight === 1n)).toBe(true);
    expect(next.precommitThreshold).toBe(3n);
  });

  it('after the transition takes the top numberActiveValidators and picks 2 standby validators with the random seeds', () => {
    // Height 35 ends round 5: round 6 = initRounds + numberActiveValidators, the first full selection.
    const snapshot = [5000n, 4000n, 3000n, 2500n, 2000n, 1900n, 1500n, 1200n, 1000n].map((weight, i) => ({
      address: addresses[i + 2]!,
      weight: weight * LSK,
    }));
    const harness = roundEnd(35, snapshot, 6);
    const next = harness.nextValidators!;
    const seed1 = setup.random.getRandomBytes(harness, 36 - 10, 7);
    const seed2 = setup.random.getRandomBytes(harness, 36 - 14, 7);

    // Independent standby pick: seed's first 8 bytes mod total weight walks the candidates.
    const candidates = snapshot.slice(5).map((v) => ({ ...v }));
    const pick = (seed: Buffer) => {
      const total = candidates.reduce((sum, v) => sum + v.weight, 0n);
      let threshold = seed.readBigUInt64BE(0) % total;
      const index = candidates.findIndex((v) => {
        if (v.weight > threshold) return true;
        threshold -= v.weight;
        return false;
      });
      return candidates.splice(index, 1)[0]!.address;
    };
    const standby = [pick(seed1), pick(seed2)];
    const expected = shuffleValidatorList(seed1, [
      ...snapshot
        .slice(0, 5)
        .map((v) => ({ address: v.address, weight: v.weight / (1000n * LSK) + (v.weight % (1000n * LSK) === 0n ? 0n : 1n) })),
      ...standby.map((address) => ({ address, weight: 0n })),
    ]);
    expect(next.validators.map((v) => [v.address, v.bftWeight])).toEqual(expected.map((v) => [v.address, v.weight]));
    expect(next.validators.filter((v) => v.bftWeight === 0n)).toHaveLength(2);
    // Weights 5+4+3+3+2 = 17.
    expect(next.precommitThreshold).toBe(12n);
  });

  it('with few candidates takes all of them as standby', () => {
    const snapshot = [5000n, 4000n, 3000n, 2500n, 2000n, 1900n].map((weight, i) => ({ address: addresses[i]!, weight: weight * LSK }));
    const next = roundEnd(35, snapshot, 6).nextValidators!;
    expect(next.validators).toHaveLength(6);
    expect(next.validators.find((v) => v.address.equals(addresses[5]!))?.bftWeight).toBe(0n);
  });

  it('sets no validators when the snapshot and init validators give none', () => {
    expect(roundEnd(35, [], 6).nextValidators).toBeUndefined();
  });
});
