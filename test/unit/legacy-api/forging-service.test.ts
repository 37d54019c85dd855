/**
 * The toggle's rules (docs/protocol/legacy-forging-api.md): entry lookup, decryption of the v3
 * string (the example of keys.md), key check, validator check, sync refusal, idempotence, and the
 * generator info it leaves in the store. The forger side is a plain keypair map, the shape the
 * engine's Forger has.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addressFromPublicKey } from '../../../src/crypto/address.js';
import { legacyKeyPairFromPassphrase } from '../../../src/crypto/legacy-keys.js';
import { encryptPassphraseV3 } from '../../../src/crypto/passphrase-v3.js';
import type { GeneratorKeypair } from '../../../src/engine/generator/generator-keypair.js';
import type { GeneratedInfo } from '../../../src/engine/generator/generator-store.js';
import { ForgerInfoFile } from '../../../src/legacy-api/forger-info-file.js';
import { ForgingService, ToggleError } from '../../../src/legacy-api/forging-service.js';
import type { LegacyDelegate } from '../../../src/legacy-api/legacy-config.js';
import { silentLogger } from '../../../src/logger.js';

// The keys.md example: password "password" → "some passphrase".
const SPEC_ENCRYPTED =
  'iterations=1000000&cipherText=86206bab954e7c4a4be30ffe6a56dd&iv=95f5611522278829623079cb&salt=e3c1f8580b6c1b41b610eb24ca61c52f&tag=681a67787312999aa824559a804ec398&version=1';
const SPEC_KEY = legacyKeyPairFromPassphrase('some passphrase').publicKey.toString('hex');
const OTHER_PASSPHRASE = 'another legacy passphrase';
const OTHER_KEY = legacyKeyPairFromPassphrase(OTHER_PASSPHRASE).publicKey;

function setup(options: { delegates: LegacyDelegate[]; validators?: Buffer[]; syncing?: boolean; forgerInfo?: ForgerInfoFile }) {
  const keypairs = new Map<string, GeneratorKeypair>();
  const info = new Map<string, GeneratedInfo>();
  const service = new ForgingService({
    delegates: options.delegates,
    forger: {
      enable: (keypair) => keypairs.set(keypair.address.toString('hex'), keypair),
      disable: (address) => keypairs.delete(address.toString('hex')),
      isEnabled: (address) => keypairs.has(address.toString('hex')),
    },
    store: {
      getInfo: (address) => info.get(address.toString('hex')),
      setInfo: (address, value) => info.set(address.toString('hex'), value),
    },
    chainIndex: 4,
    isValidator: (address) => (options.validators ?? []).some((validator) => validator.equals(address)),
    syncing: () => options.syncing ?? false,
    ...(options.forgerInfo ? { forgerInfo: options.forgerInfo } : {}),
    logger: silentLogger,
  });
  return { service, keypairs, info };
}

const refusal = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToggleError);
  return (error as Error).message;
};

describe('ForgingService', () => {
  it('decrypts the keys.md example, enables the legacy key with zero generator info, idempotently, and disables it', async () => {
    const address = addressFromPublicKey(Buffer.from(SPEC_KEY, 'hex'));
    const { service, keypairs, info } = setup({
      delegates: [{ publicKey: SPEC_KEY, encryptedPassphrase: SPEC_ENCRYPTED }],
      validators: [address],
    });
    expect(service.status()).toEqual([{ forging: false, publicKey: SPEC_KEY }]);
    expect(await service.toggle(SPEC_KEY, 'password', true)).toEqual({ publicKey: SPEC_KEY, forging: true });
    const keypair = keypairs.get(address.toString('hex'));
    expect(keypair?.generatorKey.toString('hex')).toBe(SPEC_KEY);
    expect(keypair?.blsKey).toHaveLength(48);
    expect(info.get(address.toString('hex'))).toEqual({ height: 0, maxHeightPrevoted: 0, maxHeightGenerated: 0 });
    info.set(address.toString('hex'), { height: 50, maxHeightPrevoted: 48, maxHeightGenerated: 49 });
    expect(await service.toggle(SPEC_KEY, 'password', true)).toEqual({ publicKey: SPEC_KEY, forging: true });
    // Stored generator info is the engine's and stays.
    expect(info.get(address.toString('hex'))).toEqual({ height: 50, maxHeightPrevoted: 48, maxHeightGenerated: 49 });
    expect(service.status(SPEC_KEY)).toEqual([{ forging: true, publicKey: SPEC_KEY }]);
    expect(await service.toggle(SPEC_KEY, 'password', false)).toEqual({ publicKey: SPEC_KEY, forging: false });
    expect(await service.toggle(SPEC_KEY, 'password', false)).toEqual({ publicKey: SPEC_KEY, forging: false });
    expect(keypairs.size).toBe(0);
  });

  it("refuses in 2.x's order: unknown key, wrong password, key mismatch, not a validator, not synced", async () => {
    const otherHex = OTHER_KEY.toString('hex');
    const encrypted = encryptPassphraseV3(OTHER_PASSPHRASE, 'password', { iterations: 10 });
    const mismatched = 'cd'.repeat(32);
    const { service, keypairs } = setup({
      delegates: [
        { publicKey: otherHex, encryptedPassphrase: encrypted },
        { publicKey: mismatched, encryptedPassphrase: encrypted },
      ],
    });
    expect(await refusal(service.toggle('ef'.repeat(32), 'password', true))).toBe(`Delegate with publicKey: ${'ef'.repeat(32)} not found`);
    expect(await refusal(service.toggle(otherHex.toUpperCase(), 'password', true))).toBe(
      `Delegate with publicKey: ${otherHex.toUpperCase()} not found`,
    );
    expect(await refusal(service.toggle(otherHex, 'wrong password', true))).toBe('Invalid password and public key combination');
    expect(await refusal(service.toggle(mismatched, 'password', true))).toBe('Invalid password and public key combination');
    expect(await refusal(service.toggle(otherHex, 'password', true))).toBe('Delegate not found');
    const syncing = setup({
      delegates: [{ publicKey: otherHex, encryptedPassphrase: encrypted }],
      validators: [addressFromPublicKey(OTHER_KEY)],
      syncing: true,
    });
    expect(await refusal(syncing.service.toggle(otherHex, 'password', true))).toBe(
      'Failed to enable forging as the node is not synced to the network.',
    );
    // Disabling is allowed while syncing.
    expect(await syncing.service.toggle(otherHex, 'password', false)).toEqual({ publicKey: otherHex, forging: false });
    expect(keypairs.size).toBe(0);
  });

  it('finds a 3.x entry (hex address, no public key) by the address of the given key', async () => {
    const address = addressFromPublicKey(OTHER_KEY);
    const encrypted = encryptPassphraseV3(OTHER_PASSPHRASE, 'password', { iterations: 10 });
    const { service } = setup({ delegates: [{ address: address.toString('hex'), encryptedPassphrase: encrypted }], validators: [address] });
    expect(service.status()).toEqual([{ forging: false, address: address.toString('hex') }]);
    expect(await service.toggle(OTHER_KEY.toString('hex'), 'password', true)).toEqual({
      publicKey: OTHER_KEY.toString('hex'),
      forging: true,
    });
    expect(service.status()).toEqual([{ forging: true, address: address.toString('hex') }]);
  });

  it('resumes from the later of the store and a copied forger_info.json, and rewrites the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'basalt-forger-info-'));
    try {
      const address = addressFromPublicKey(OTHER_KEY);
      const copied = new ForgerInfoFile(dir);
      copied.save([{ address, info: { height: 120, maxHeightPrevoted: 100, maxHeightGenerated: 90 } }]);
      const encrypted = encryptPassphraseV3(OTHER_PASSPHRASE, 'password', { iterations: 10 });
      const { service, info } = setup({
        delegates: [{ publicKey: OTHER_KEY.toString('hex'), encryptedPassphrase: encrypted }],
        validators: [address],
        forgerInfo: new ForgerInfoFile(dir),
      });
      info.set(address.toString('hex'), { height: 110, maxHeightPrevoted: 105, maxHeightGenerated: 80 });
      await service.toggle(OTHER_KEY.toString('hex'), 'password', true);
      expect(info.get(address.toString('hex'))).toEqual({ height: 120, maxHeightPrevoted: 105, maxHeightGenerated: 90 });
      const file = JSON.parse(readFileSync(join(dir, 'forger_info.json'), 'utf8'));
      expect(file.forgerInfo[0]).toMatchObject({ height: 120, maxHeightPrevoted: 105, maxHeightPreviouslyForged: 90 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('auto-loads every delegate with forging.defaultPassword (forced forging) and stops on one that does not load', async () => {
    const address = addressFromPublicKey(OTHER_KEY);
    const encrypted = encryptPassphraseV3(OTHER_PASSPHRASE, 'default pw', { iterations: 10 });
    const ok = setup({ delegates: [{ address: address.toString('hex'), encryptedPassphrase: encrypted }], validators: [address] });
    await ok.service.enableAll('default pw');
    expect(ok.keypairs.has(address.toString('hex'))).toBe(true);
    const wrong = setup({ delegates: [{ publicKey: OTHER_KEY.toString('hex'), encryptedPassphrase: encrypted }], validators: [address] });
    expect(await refusal(wrong.service.enableAll('not it'))).toBe(
      `Invalid encryptedPassphrase for ${OTHER_KEY.toString('hex')}. Check forging.defaultPassword and the entry.`,
    );
    const notValidator = setup({ delegates: [{ publicKey: OTHER_KEY.toString('hex'), encryptedPassphrase: encrypted }] });
    expect(await refusal(notValidator.service.enableAll('default pw'))).toBe(`Account ${OTHER_KEY.toString('hex')} is not a delegate.`);
  });
});
