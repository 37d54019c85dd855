/**
 * Conformance: crypto/ed25519_tagged_signatures.json. Signing reproduces every signature that
 * has a private key (RFC 8032 is deterministic); verification equals `valid`, i.e. libsodium's
 * strict result (the last two negatives are accepted by tweetnacl but must be rejected here).
 */
import { describe, expect, it } from 'vitest';
import { signData, tagMessage, taggedDigest, verifyData, verifyDigest } from '../../src/crypto/index.js';
import { caseCounter } from '../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../support/fixtures.js';

interface SignatureCase {
  description: string;
  tag: string;
  chainID: string;
  message: string;
  privateKey?: string;
  publicKey: string;
  taggedMessage: string;
  digest: string;
  signature: string;
  valid: boolean;
}

const FILE = 'crypto/ed25519_tagged_signatures.json';
const fixture = loadJsonFixture<{ testCases: SignatureCase[] }>(FILE);

describe(FILE, () => {
  const caseDone = caseCounter(FILE);
  it('has its 28 cases', () => {
    expect(fixture.testCases).toHaveLength(28);
  });
  fixture.testCases.forEach((testCase, index) => {
    it(`#${index} ${testCase.description}`, () => {
      const chainID = hex(testCase.chainID);
      const message = hex(testCase.message);
      expect(tagMessage(testCase.tag, chainID, message).toString('hex')).toBe(testCase.taggedMessage);
      expect(taggedDigest(testCase.tag, chainID, message).toString('hex')).toBe(testCase.digest);
      if (testCase.privateKey !== undefined) {
        expect(signData(testCase.tag, chainID, message, hex(testCase.privateKey)).toString('hex')).toBe(testCase.signature);
      }
      const signature = hex(testCase.signature);
      const publicKey = hex(testCase.publicKey);
      expect(verifyData(testCase.tag, chainID, message, signature, publicKey)).toBe(testCase.valid);
      expect(verifyDigest(hex(testCase.digest), signature, publicKey)).toBe(testCase.valid);
      caseDone();
    });
  });
});
