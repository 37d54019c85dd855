/** Conformance: crypto/address_from_pub_key.json (address = H(pk)[0..20), lisk32; LIP 0018). */
import { describe, expect, it } from 'vitest';
import { addressFromPublicKey, decodeLisk32, encodeLisk32, lisk32FromPublicKey } from '../../src/crypto/index.js';
import { caseCounter } from '../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../support/fixtures.js';

interface AddressFixture {
  testCases: { description: string; input: { publicKey: string }; output: { binaryAddress: string; base32Address: string } }[];
}

const FILE = 'crypto/address_from_pub_key.json';
const fixture = loadJsonFixture<AddressFixture>(FILE);

describe(FILE, () => {
  const caseDone = caseCounter(FILE);
  it('has its 8 cases', () => {
    expect(fixture.testCases).toHaveLength(8);
  });
  fixture.testCases.forEach((testCase, index) => {
    it(`#${index} ${testCase.description}`, () => {
      const publicKey = hex(testCase.input.publicKey);
      const address = addressFromPublicKey(publicKey);
      expect(address.toString('hex')).toBe(testCase.output.binaryAddress);
      expect(encodeLisk32(address)).toBe(testCase.output.base32Address);
      expect(lisk32FromPublicKey(publicKey)).toBe(testCase.output.base32Address);
      expect(decodeLisk32(testCase.output.base32Address).toString('hex')).toBe(testCase.output.binaryAddress);
      caseDone();
    });
  });
});
