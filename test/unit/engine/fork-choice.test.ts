/**
 * LIP 0014's fork choice rule as lisk-sdk 6.1 applies it (fork_choice_rule.ts): each predicate on
 * its own, then the decision order of forkChoice, with 3-second slots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  forkChoice,
  ForkStatus,
  isDifferentChain,
  isDoubleForging,
  isDuplicateBlock,
  isIdenticalBlock,
  isReceivedInSlot,
  isTieBreak,
  isValidBlock,
  type ForkChoiceHeader,
  type SlotClock,
} from '../../../src/engine/fork-choice.js';

const BLOCK_TIME = 3;
const clock: SlotClock = { slotNumber: (timestamp) => Math.floor(timestamp / BLOCK_TIME) };
const id = (n: number): Buffer => Buffer.alloc(32, n);
const address = (n: number): Buffer => Buffer.alloc(20, n);

/** The tip: height 100 at slot 1000 (timestamp 3000) by generator 1, child of block 99. */
const tip: ForkChoiceHeader = {
  id: id(100),
  height: 100,
  previousBlockID: id(99),
  generatorAddress: address(1),
  maxHeightPrevoted: 90,
  timestamp: 3000,
};

/** A competitor of the tip (same parent, height and prevoted height) by generator 2, one slot later. */
const competitor: ForkChoiceHeader = { ...tip, id: id(200), generatorAddress: address(2), timestamp: 3003 };

describe('fork choice predicates', () => {
  it('isValidBlock: the next height on top of the tip only', () => {
    const child = { ...tip, id: id(101), height: 101, previousBlockID: tip.id, timestamp: 3003 };
    expect(isValidBlock(tip, child)).toBe(true);
    expect(isValidBlock(tip, { ...child, previousBlockID: id(7) })).toBe(false);
    expect(isValidBlock(tip, { ...child, height: 102 })).toBe(false);
    expect(isValidBlock(tip, tip)).toBe(false);
  });

  it('isIdenticalBlock compares IDs only', () => {
    expect(isIdenticalBlock(tip, { ...competitor, id: tip.id })).toBe(true);
    expect(isIdenticalBlock(tip, competitor)).toBe(false);
  });

  it('isDuplicateBlock: same height, same prevoted height, same parent', () => {
    expect(isDuplicateBlock(tip, competitor)).toBe(true);
    expect(isDuplicateBlock(tip, { ...competitor, height: 101 })).toBe(false);
    expect(isDuplicateBlock(tip, { ...competitor, maxHeightPrevoted: 91 })).toBe(false);
    expect(isDuplicateBlock(tip, { ...competitor, previousBlockID: id(98) })).toBe(false);
  });

  it('isDoubleForging: a duplicate by the same generator', () => {
    expect(isDoubleForging(tip, { ...competitor, generatorAddress: tip.generatorAddress })).toBe(true);
    expect(isDoubleForging(tip, competitor)).toBe(false);
    expect(isDoubleForging(tip, { ...competitor, generatorAddress: tip.generatorAddress, height: 99 })).toBe(false);
  });

  it('isReceivedInSlot: the receive time in the block slot; unknown counts as in time', () => {
    expect(isReceivedInSlot(clock, { ...tip, receivedAt: 3000 })).toBe(true);
    expect(isReceivedInSlot(clock, { ...tip, receivedAt: 3002 })).toBe(true);
    expect(isReceivedInSlot(clock, { ...tip, receivedAt: 3003 })).toBe(false);
    expect(isReceivedInSlot(clock, { ...tip, receivedAt: 2999 })).toBe(false);
    expect(isReceivedInSlot(clock, tip)).toBe(true);
  });

  it('isTieBreak: a later-slot duplicate in time against a late tip', () => {
    const lateTip = { ...tip, receivedAt: 3004 };
    expect(isTieBreak(clock, lateTip, { ...competitor, receivedAt: 3004 })).toBe(true);
    // The tip arrived in time (or its arrival is unknown: generated, synced, replayed).
    expect(isTieBreak(clock, { ...tip, receivedAt: 3001 }, { ...competitor, receivedAt: 3004 })).toBe(false);
    expect(isTieBreak(clock, tip, { ...competitor, receivedAt: 3004 })).toBe(false);
    // The competitor is late too.
    expect(isTieBreak(clock, lateTip, { ...competitor, receivedAt: 3006 })).toBe(false);
    // The competitor is from the same or an earlier slot.
    expect(isTieBreak(clock, lateTip, { ...competitor, timestamp: 3001, receivedAt: 3001 })).toBe(false);
    expect(isTieBreak(clock, lateTip, { ...competitor, timestamp: 2997, receivedAt: 2997 })).toBe(false);
    // Not a duplicate.
    expect(isTieBreak(clock, lateTip, { ...competitor, maxHeightPrevoted: 89, receivedAt: 3004 })).toBe(false);
  });

  it('isDifferentChain: a higher prevoted height, or as high and longer', () => {
    expect(isDifferentChain(tip, { height: 100, maxHeightPrevoted: 91 })).toBe(true);
    expect(isDifferentChain(tip, { height: 50, maxHeightPrevoted: 91 })).toBe(true);
    expect(isDifferentChain(tip, { height: 101, maxHeightPrevoted: 90 })).toBe(true);
    expect(isDifferentChain(tip, { height: 100, maxHeightPrevoted: 90 })).toBe(false);
    expect(isDifferentChain(tip, { height: 200, maxHeightPrevoted: 89 })).toBe(false);
    expect(isDifferentChain({ height: 5, maxHeightPrevoted: 0 }, { height: 6, maxHeightPrevoted: 0 })).toBe(true);
  });
});

describe('forkChoice', () => {
  const late = { ...tip, receivedAt: 3005 };

  it.each<[string, ForkChoiceHeader & { receivedAt?: number }, ForkChoiceHeader & { receivedAt: number }, ForkStatus]>([
    [
      'the next block',
      tip,
      { ...tip, id: id(101), height: 101, previousBlockID: tip.id, timestamp: 3003, receivedAt: 3003 },
      ForkStatus.VALID_BLOCK,
    ],
    [
      'the next block, received late',
      tip,
      { ...tip, id: id(101), height: 101, previousBlockID: tip.id, timestamp: 3003, receivedAt: 9000 },
      ForkStatus.VALID_BLOCK,
    ],
    ['the tip again', tip, { ...tip, receivedAt: 3001 }, ForkStatus.IDENTICAL_BLOCK],
    [
      'a second block of the tip generator',
      late,
      { ...competitor, generatorAddress: tip.generatorAddress, receivedAt: 3004 },
      ForkStatus.DOUBLE_FORGING,
    ],
    ['a timely competitor against a late tip', late, { ...competitor, timestamp: 3004, receivedAt: 3005 }, ForkStatus.TIE_BREAK],
    ['a timely competitor against a timely tip', { ...tip, receivedAt: 3000 }, { ...competitor, receivedAt: 3004 }, ForkStatus.DISCARD],
    ['a timely competitor against a generated tip', tip, { ...competitor, receivedAt: 3004 }, ForkStatus.DISCARD],
    ['a late competitor against a late tip', late, { ...competitor, receivedAt: 3007 }, ForkStatus.DISCARD],
    [
      'a competitor with a higher prevoted height',
      tip,
      { ...competitor, maxHeightPrevoted: 95, receivedAt: 3004 },
      ForkStatus.DIFFERENT_CHAIN,
    ],
    [
      'a longer chain at the same prevoted height',
      tip,
      { ...competitor, height: 103, previousBlockID: id(102), receivedAt: 3004 },
      ForkStatus.DIFFERENT_CHAIN,
    ],
    ['a block below the tip', tip, { ...competitor, height: 98, previousBlockID: id(97), receivedAt: 3004 }, ForkStatus.DISCARD],
    [
      'a block above the tip with a lower prevoted height',
      tip,
      { ...competitor, height: 150, maxHeightPrevoted: 80, receivedAt: 3004 },
      ForkStatus.DISCARD,
    ],
  ])('%s', (_name, tipHeader, received, expected) => {
    expect(forkChoice(clock, tipHeader, received)).toBe(expected);
  });

  it('checks in lisk-sdk order: valid, identical, double forging, tie break, different chain, discard', () => {
    const header = fc.record({
      id: fc.integer({ min: 0, max: 3 }).map(id),
      height: fc.integer({ min: 98, max: 102 }),
      previousBlockID: fc.integer({ min: 0, max: 3 }).map(id),
      generatorAddress: fc.integer({ min: 0, max: 2 }).map(address),
      maxHeightPrevoted: fc.integer({ min: 89, max: 91 }),
      timestamp: fc.integer({ min: 2995, max: 3010 }),
    });
    fc.assert(
      fc.property(
        header,
        header,
        fc.option(fc.integer({ min: 2995, max: 3015 }), { nil: undefined }),
        fc.integer({ min: 2995, max: 3015 }),
        (a, b, tipAt, receivedAt) => {
          const tipHeader = { ...a, receivedAt: tipAt };
          const received = { ...b, receivedAt };
          const expected = isValidBlock(tipHeader, received)
            ? ForkStatus.VALID_BLOCK
            : isIdenticalBlock(tipHeader, received)
              ? ForkStatus.IDENTICAL_BLOCK
              : isDoubleForging(tipHeader, received)
                ? ForkStatus.DOUBLE_FORGING
                : isTieBreak(clock, tipHeader, received)
                  ? ForkStatus.TIE_BREAK
                  : isDifferentChain(tipHeader, received)
                    ? ForkStatus.DIFFERENT_CHAIN
                    : ForkStatus.DISCARD;
          expect(forkChoice(clock, tipHeader, received)).toBe(expected);
          // A tie break always replaces a block by a different generator from a later slot.
          if (expected === ForkStatus.TIE_BREAK) {
            expect(a.generatorAddress.equals(b.generatorAddress)).toBe(false);
            expect(clock.slotNumber(b.timestamp)).toBeGreaterThan(clock.slotNumber(a.timestamp));
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
