/**
 * Conformance: genesis/<network>/dev-validators.json — all 103 entries of both files re-derived
 * from passphrase.json (account key, generator key, BLS key and proof of possession), as
 * keys:create would (lisk-commander keys/create.ts). Each entry costs one TypeScript PoP (tens of ms).
 */
import { describe, expect, it } from 'vitest';
import { deriveValidatorKeys } from '../../src/crypto/index.js';
import { caseCounter } from '../support/conformance-tally.js';
import { loadJsonFixture } from '../support/fixtures.js';

interface DevValidators {
  keys: {
    address: string;
    keyPath: string;
    publicKey: string;
    privateKey: string;
    plain: {
      generatorKeyPath: string;
      generatorKey: string;
      generatorPrivateKey: string;
      blsKeyPath: string;
      blsKey: string;
      blsProofOfPossession: string;
      blsPrivateKey: string;
    };
  }[];
}

const NETWORKS = [
  { folder: 'genesis/pos-mainchain-default', chainIndex: 0 },
  { folder: 'genesis/lisk-core-devnet', chainIndex: 4 },
];

for (const { folder, chainIndex } of NETWORKS) {
  const file = `${folder}/dev-validators.json`;
  const { keys } = loadJsonFixture<DevValidators>(file);
  const { passphrase } = loadJsonFixture<{ passphrase: string }>(`${folder}/passphrase.json`);

  describe(file, () => {
    const caseDone = caseCounter(file);
    it('has 103 entries', () => {
      expect(keys).toHaveLength(103);
    });
    keys.forEach((entry, accountIndex) => {
      it(`entry ${accountIndex}`, () => {
        const derived = deriveValidatorKeys(passphrase, { chainIndex, accountIndex });
        expect(derived.keyPath).toBe(entry.keyPath);
        expect(derived.address).toBe(entry.address);
        expect(derived.publicKey.toString('hex')).toBe(entry.publicKey);
        expect(derived.privateKey.toString('hex')).toBe(entry.privateKey);
        expect(derived.generatorKeyPath).toBe(entry.plain.generatorKeyPath);
        expect(derived.generatorKey.toString('hex')).toBe(entry.plain.generatorKey);
        expect(derived.generatorPrivateKey.toString('hex')).toBe(entry.plain.generatorPrivateKey);
        expect(derived.blsKeyPath).toBe(entry.plain.blsKeyPath);
        expect(derived.blsPrivateKey.toString('hex')).toBe(entry.plain.blsPrivateKey);
        expect(derived.blsKey.toString('hex')).toBe(entry.plain.blsKey);
        expect(derived.blsProofOfPossession.toString('hex')).toBe(entry.plain.blsProofOfPossession);
        caseDone();
      });
    });
  });
}
