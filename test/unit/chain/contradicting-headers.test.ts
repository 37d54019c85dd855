/**
 * areHeadersContradicting (lisk-sdk bft/utils areDistinctHeadersContradicting): every verified case
 * listed in docs/protocol/bft.md, in both argument orders, plus the same-block rule.
 */
import { describe, expect, it } from 'vitest';
import { areDistinctHeadersContradicting, areHeadersContradicting } from '../../../src/chain/contradicting-headers.js';

const GENERATOR = Buffer.alloc(20, 0xaa);
const OTHER = Buffer.alloc(20, 0xbb);

/** A header's BFT fields as the spec writes them: (height, maxHeightGenerated, maxHeightPrevoted). */
function bft(height: number, maxHeightGenerated: number, maxHeightPrevoted: number, generatorAddress = GENERATOR) {
  return {
    height,
    maxHeightGenerated,
    maxHeightPrevoted,
    generatorAddress,
    id: Buffer.from(`${height}/${maxHeightGenerated}/${maxHeightPrevoted}/${generatorAddress[0]}`),
  };
}

describe('the verified cases of docs/protocol/bft.md', () => {
  const cases = [
    { name: '(100,90,80) vs the same values by another generator', a: bft(100, 90, 80), b: bft(100, 90, 80, OTHER), contradicting: false },
    {
      name: 'identical values by the same generator (double forging)',
      a: bft(100, 90, 80),
      b: { ...bft(100, 90, 80), id: Buffer.from('other block') },
      contradicting: true,
    },
    {
      name: '(101,90,80) / (100,95,80): the later one does not acknowledge the earlier',
      a: bft(101, 90, 80),
      b: bft(100, 95, 80),
      contradicting: true,
    },
    { name: '(100,90,80) / (105,100,85): a proper successor', a: bft(100, 90, 80), b: bft(105, 100, 85), contradicting: false },
    {
      name: '(100,90,80) / (105,95,85): height above the later maxHeightGenerated',
      a: bft(100, 90, 80),
      b: bft(105, 95, 85),
      contradicting: true,
    },
    { name: '(100,90,85) / (105,100,80): maxHeightPrevoted went down', a: bft(100, 90, 85), b: bft(105, 100, 80), contradicting: true },
    { name: '(100,90,80) / (101,100,81): a proper successor', a: bft(100, 90, 80), b: bft(101, 100, 81), contradicting: false },
  ];

  it.each(cases)('$name → $contradicting', ({ a, b, contradicting }) => {
    expect(areDistinctHeadersContradicting(a, b)).toBe(contradicting);
    expect(areDistinctHeadersContradicting(b, a)).toBe(contradicting);
    expect(areHeadersContradicting(a, b)).toBe(contradicting);
    expect(areHeadersContradicting(b, a)).toBe(contradicting);
  });
});

describe('areHeadersContradicting', () => {
  it('is false for the same block (equal IDs), even though its fields would "double forge"', () => {
    const header = bft(100, 90, 80);
    expect(areDistinctHeadersContradicting(header, header)).toBe(true);
    expect(areHeadersContradicting(header, { ...header })).toBe(false);
  });

  it('orders by maxHeightGenerated, then maxHeightPrevoted, then height', () => {
    // Equal mhg and mhp, heights 100 and 101: the earlier one is at 100, 100 ≥ 101 is false,
    // 100 > mhg 90 of the later one → contradicting (the later block ignores the earlier).
    expect(areDistinctHeadersContradicting(bft(101, 90, 80), bft(100, 90, 80))).toBe(true);
    // Equal mhg: the lower maxHeightPrevoted is the earlier header even at a greater height, so
    // (99,100,80) precedes (98,100,81) and nothing contradicts (ordering by height would find
    // the prevoted height going down instead).
    expect(areDistinctHeadersContradicting(bft(98, 100, 81), bft(99, 100, 80))).toBe(false);
    expect(areDistinctHeadersContradicting(bft(99, 100, 80), bft(98, 100, 81))).toBe(false);
    // A greater maxHeightGenerated makes a header the later one whatever its height.
    expect(areDistinctHeadersContradicting(bft(50, 101, 80), bft(100, 90, 80))).toBe(true);
  });
});
