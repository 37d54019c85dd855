/**
 * Conformance: crypto/keys/key_derivation.json, every vector of every section — LIP 0066
 * Ed25519 and BLS, EIP-2333 master/child, the SDK tooling paths (keys:create), dev-validator
 * spot entries and legacy sha256(passphrase) keys.
 */
import { describe, expect, it } from 'vitest';
import {
  addressFromPublicKey,
  blsPublicKeyFromSecretKey,
  blsSecretKeyFromPassphrase,
  deriveValidatorKeys,
  ed25519KeyPairFromPassphrase,
  ed25519SeedFromBip39Seed,
  eip2333DeriveChild,
  eip2333DeriveMaster,
  legacyAddressFromPublicKey,
  legacyKeyPairFromPassphrase,
  lisk32FromPublicKey,
  mnemonicToSeed,
  sha256,
  type ValidatorKeys,
} from '../../src/crypto/index.js';
import { caseCounter } from '../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../support/fixtures.js';

interface ToolingVector {
  phrase: string;
  keyPath: string;
  privateKey: string;
  publicKey: string;
  address: string;
  generatorKeyPath: string;
  generatorPrivateKey: string;
  generatorKey: string;
  blsKeyPath: string;
  blsPrivateKey: string;
  blsKey: string;
  blsProofOfPossession: string;
}

interface KeyDerivationFixture {
  lip0066Ed25519: {
    phrase: string;
    path: string;
    privateKeySeed: string;
    publicKey: string;
    privateKey: string;
    address: string;
    lisk32Address: string;
  }[];
  lip0066Bls: { phrase: string; path: string; privateKeyDecimal: string; privateKey: string; publicKey: string }[];
  eip2333: { seed: string; masterSK: string; masterSKHex: string; childIndex: number; childSK: string; childSKHex: string }[];
  liskToolingVectors: (ToolingVector & { chainid: number; n: number })[];
  devValidators: (ToolingVector & { source: string; index: number })[];
  legacy: {
    passphrase: string;
    privateKeySeed: string;
    privateKey: string;
    publicKey: string;
    address: string;
    lisk32Address: string;
    legacyAddress: string;
  }[];
}

const FILE = 'crypto/keys/key_derivation.json';
const fixture = loadJsonFixture<KeyDerivationFixture>(FILE);

/** Compares every keys.json field of a derived validator with a vector. */
function expectValidatorKeys(actual: ValidatorKeys, expected: ToolingVector): void {
  expect(actual.keyPath).toBe(expected.keyPath);
  expect(actual.generatorKeyPath).toBe(expected.generatorKeyPath);
  expect(actual.blsKeyPath).toBe(expected.blsKeyPath);
  expect(actual.privateKey.toString('hex')).toBe(expected.privateKey);
  expect(actual.publicKey.toString('hex')).toBe(expected.publicKey);
  expect(actual.address).toBe(expected.address);
  expect(actual.generatorPrivateKey.toString('hex')).toBe(expected.generatorPrivateKey);
  expect(actual.generatorKey.toString('hex')).toBe(expected.generatorKey);
  expect(actual.blsPrivateKey.toString('hex')).toBe(expected.blsPrivateKey);
  expect(actual.blsKey.toString('hex')).toBe(expected.blsKey);
  expect(actual.blsProofOfPossession.toString('hex')).toBe(expected.blsProofOfPossession);
}

/** m/12381/134/<chainid>/<n> → the two integers keys:create was given. */
function indexesOf(blsKeyPath: string): { chainIndex: number; accountIndex: number } {
  const parts = blsKeyPath.split('/');
  return { chainIndex: Number(parts[3]), accountIndex: Number(parts[4]) };
}

describe(FILE, () => {
  const caseDone = caseCounter(FILE);
  it('has 3 + 1 + 4 + 4 + 12 + 3 vectors', () => {
    expect(fixture.lip0066Ed25519).toHaveLength(3);
    expect(fixture.lip0066Bls).toHaveLength(1);
    expect(fixture.eip2333).toHaveLength(4);
    expect(fixture.liskToolingVectors).toHaveLength(4);
    expect(fixture.devValidators).toHaveLength(12);
    expect(fixture.legacy).toHaveLength(3);
  });

  fixture.lip0066Ed25519.forEach((vector, index) => {
    it(`LIP 0066 Ed25519 #${index} ${vector.path}`, () => {
      expect(ed25519SeedFromBip39Seed(mnemonicToSeed(vector.phrase), vector.path).toString('hex')).toBe(vector.privateKeySeed);
      const pair = ed25519KeyPairFromPassphrase(vector.phrase, vector.path);
      expect(pair.publicKey.toString('hex')).toBe(vector.publicKey);
      expect(pair.privateKey.toString('hex')).toBe(vector.privateKey);
      expect(addressFromPublicKey(pair.publicKey).toString('hex')).toBe(vector.address);
      expect(lisk32FromPublicKey(pair.publicKey)).toBe(vector.lisk32Address);
      caseDone();
    });
  });

  fixture.lip0066Bls.forEach((vector, index) => {
    it(`LIP 0066 BLS #${index} ${vector.path}`, () => {
      const secretKey = blsSecretKeyFromPassphrase(vector.phrase, vector.path);
      expect(secretKey.toString('hex')).toBe(vector.privateKey);
      expect(BigInt(`0x${secretKey.toString('hex')}`).toString()).toBe(vector.privateKeyDecimal);
      expect(blsPublicKeyFromSecretKey(secretKey).toString('hex')).toBe(vector.publicKey);
      caseDone();
    });
  });

  fixture.eip2333.forEach((vector, index) => {
    it(`EIP-2333 #${index} child ${vector.childIndex}`, () => {
      const master = eip2333DeriveMaster(hex(vector.seed));
      expect(master.toString('hex')).toBe(vector.masterSKHex);
      expect(BigInt(`0x${master.toString('hex')}`).toString()).toBe(vector.masterSK);
      const child = eip2333DeriveChild(master, vector.childIndex);
      expect(child.toString('hex')).toBe(vector.childSKHex);
      expect(BigInt(`0x${child.toString('hex')}`).toString()).toBe(vector.childSK);
      caseDone();
    });
  });

  fixture.liskToolingVectors.forEach((vector, index) => {
    it(`tooling #${index} chainid ${vector.chainid} n ${vector.n}`, () => {
      expectValidatorKeys(deriveValidatorKeys(vector.phrase, { chainIndex: vector.chainid, accountIndex: vector.n }), vector);
      caseDone();
    });
  });

  fixture.devValidators.forEach((vector, index) => {
    it(`dev validator #${index} (${vector.source} #${vector.index})`, () => {
      const indexes = indexesOf(vector.blsKeyPath);
      expect(indexes.accountIndex).toBe(vector.index);
      expectValidatorKeys(deriveValidatorKeys(vector.phrase, indexes), vector);
      caseDone();
    });
  });

  fixture.legacy.forEach((vector, index) => {
    it(`legacy #${index}`, () => {
      expect(sha256(Buffer.from(vector.passphrase, 'utf8')).toString('hex')).toBe(vector.privateKeySeed);
      const pair = legacyKeyPairFromPassphrase(vector.passphrase);
      expect(pair.privateKey.toString('hex')).toBe(vector.privateKey);
      expect(pair.publicKey.toString('hex')).toBe(vector.publicKey);
      expect(addressFromPublicKey(pair.publicKey).toString('hex')).toBe(vector.address);
      expect(lisk32FromPublicKey(pair.publicKey)).toBe(vector.lisk32Address);
      expect(legacyAddressFromPublicKey(pair.publicKey)).toBe(vector.legacyAddress);
      caseDone();
    });
  });
});
