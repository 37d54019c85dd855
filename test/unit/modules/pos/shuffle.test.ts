/**
 * Round order of validators (LIP 0057; lisk-sdk modules/utils/shuffleValidatorList.ts), checked
 * against lisk-sdk's protocol-spec output test/fixtures/pos/uniformly_shuffled_validator_list.json.
 */
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../../src/crypto/index.js';
import { shuffleValidatorList } from '../../../../src/modules/pos/shuffle.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../../../support/fixtures.js';

interface ShuffleFixture {
  testCases: {
    input: { previousRoundSeed1: string; validatorList: string[] };
    output: { validatorList: string[] };
  };
}

const FIXTURE = 'pos/uniformly_shuffled_validator_list.json';

describe('shuffleValidatorList', () => {
  it('reproduces the lisk-sdk fixture exactly', () => {
    const fixture = loadJsonFixture<ShuffleFixture>(FIXTURE);
    // testCases is one object, not an array: one case of 103 validators.
    const cases = [fixture.testCases];
    for (const { input, output } of cases) {
      const validators = input.validatorList.map((address) => ({ address: hex(address), weight: 1n }));
      const shuffled = shuffleValidatorList(hex(input.previousRoundSeed1), validators);
      expect(shuffled.map((v) => v.address.toString('hex'))).toEqual(output.validatorList);
      expect(shuffled).toHaveLength(103);
    }
    recordCases(FIXTURE, cases.length);
  });

  it('orders by sha256(seed ‖ address), then by address, and keeps the input intact', () => {
    const seed = Buffer.alloc(16, 7);
    const validators = [Buffer.alloc(20, 3), Buffer.alloc(20, 1), Buffer.alloc(20, 2)].map((address) => ({ address, weight: 0n }));
    const before = validators.map((v) => v.address);
    const shuffled = shuffleValidatorList(seed, validators);
    const expectedOrder = [...validators].sort((a, b) =>
      sha256(Buffer.concat([seed, a.address])).compare(sha256(Buffer.concat([seed, b.address]))),
    );
    expect(shuffled).toEqual(expectedOrder);
    expect(validators.map((v) => v.address)).toEqual(before);
    // Entries are the caller's objects (weights travel with them).
    expect(shuffled.every((entry) => validators.includes(entry))).toBe(true);
  });

  it('breaks hash ties by address (the same address twice gives equal hashes)', () => {
    const a = { address: Buffer.alloc(20, 9), weight: 1n };
    const b = { address: Buffer.alloc(20, 9), weight: 2n };
    expect(shuffleValidatorList(Buffer.alloc(16), [b, a])).toEqual([b, a]);
  });
});
