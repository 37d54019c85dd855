/** Conformance: crypto/hash_onion.json — checkpoints, argument errors and the reveal rule (LIP 0046). */
import { describe, expect, it } from 'vitest';
import { generateHashOnion, isValidSeedRevealSuccessor } from '../../src/crypto/index.js';
import { InvalidParamsError } from '../../src/errors.js';
import { caseCounter } from '../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../support/fixtures.js';

interface HashOnionFixture {
  testCases: { description: string; input: { seed: string; count: number; distance: number }; output: { hashes: string[] } }[];
  errors: { input: { count: number; distance: number }; error: string }[];
  revealChain: { previousReveal: string; nextReveal: string; isValidSuccessor: boolean }[];
}

const FILE = 'crypto/hash_onion.json';
const fixture = loadJsonFixture<HashOnionFixture>(FILE);

describe(FILE, () => {
  const caseDone = caseCounter(FILE);
  it('has 38 onions, 2 errors and 10 reveals', () => {
    expect(fixture.testCases).toHaveLength(38);
    expect(fixture.errors).toHaveLength(2);
    expect(fixture.revealChain).toHaveLength(10);
  });
  fixture.testCases.forEach((testCase, index) => {
    const { seed, count, distance } = testCase.input;
    it(`onion #${index} count ${count} distance ${distance}`, () => {
      const hashes = generateHashOnion(hex(seed), count, distance).map((h) => h.toString('hex'));
      expect(hashes).toEqual(testCase.output.hashes);
      caseDone();
    });
  });
  fixture.errors.forEach((testCase, index) => {
    it(`error #${index}: ${testCase.error}`, () => {
      const call = () => generateHashOnion(Buffer.alloc(16), testCase.input.count, testCase.input.distance);
      expect(call).toThrow(InvalidParamsError);
      expect(call).toThrow(testCase.error);
      caseDone();
    });
  });
  fixture.revealChain.forEach((testCase, index) => {
    it(`reveal #${index} is ${testCase.isValidSuccessor ? '' : 'not '}a valid successor`, () => {
      expect(isValidSeedRevealSuccessor(hex(testCase.previousReveal), hex(testCase.nextReveal))).toBe(testCase.isValidSuccessor);
      caseDone();
    });
  });
});
