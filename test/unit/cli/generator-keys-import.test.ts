/**
 * Start-up import of `generator.keys.fromFile` (lisk-sdk generator.ts loading
 * generator.keys.fromFile): encrypted entries are stored encrypted (their plain keys are not),
 * other entries plain; every stored plain key is returned for enabling; inconsistent or malformed
 * keys are refused without echoing key material.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { keysFileEntry, plainKeysPlaintext } from '../../../src/cli/support/keys-file.js';
import { decodeLisk32, deriveValidatorKeys, encryptMessageWithPassword } from '../../../src/crypto/index.js';
import { decodeEncryptedKeys, GeneratorStore } from '../../../src/engine/generator/generator-store.js';
import { importGeneratorKeysFile, storedPlainKeypairs } from '../../../src/engine/generator/generator-keys-import.js';

const dir = mkdtempSync(join(tmpdir(), 'basalt-keys-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PHRASE = 'target cancel solution recipe vague faint bomb convince pink vendor fresh patrol';
const [a, b, c] = [0, 1, 2].map((accountIndex) => deriveValidatorKeys(PHRASE, { chainIndex: 4, accountIndex })) as [
  ReturnType<typeof deriveValidatorKeys>,
  ReturnType<typeof deriveValidatorKeys>,
  ReturnType<typeof deriveValidatorKeys>,
];

describe('importGeneratorKeysFile', () => {
  it('stores encrypted entries encrypted and plain ones plain; returns every stored plain keypair', async () => {
    const env = open({ path: join(dir, 'db1') });
    const store = new GeneratorStore(env);
    const encrypted = await encryptMessageWithPassword(plainKeysPlaintext(keysFileEntry(a, undefined).plain as never), 'pw', {
      kdfparams: { memorySize: 64 },
    });
    // c was stored plain before (e.g. by generator_setKeys): lisk-sdk enables it at start too.
    store.setKeys(decodeLisk32(c.address), {
      type: 'plain',
      data: { generatorKey: c.generatorKey, generatorPrivateKey: c.generatorPrivateKey, blsKey: c.blsKey, blsPrivateKey: c.blsPrivateKey },
    });
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify({ keys: [keysFileEntry(a, encrypted), keysFileEntry(b, undefined)] }));

    const keypairs = importGeneratorKeysFile(file, store);
    expect(keypairs.map((keypair) => keypair.generatorKey.toString('hex')).sort()).toEqual(
      [b.generatorKey, c.generatorKey].map((key) => key.toString('hex')).sort(),
    );
    const storedA = store.getKeys(decodeLisk32(a.address));
    expect(storedA?.type).toBe('encrypted');
    const { mac: _mac, ...withoutMac } = encrypted;
    expect(decodeEncryptedKeys(storedA?.data as Buffer)).toEqual(withoutMac);
    expect(storedPlainKeypairs(store)).toHaveLength(2);
    env.close();
  });

  it('refuses inconsistent plain keys and malformed encrypted objects without echoing keys', () => {
    const env = open({ path: join(dir, 'db2') });
    const store = new GeneratorStore(env);
    const mixed = keysFileEntry(a, undefined);
    mixed.plain = { ...mixed.plain!, blsPrivateKey: b.blsPrivateKey.toString('hex') };
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ keys: [mixed] }));
    expect(() => importGeneratorKeysFile(file, store)).toThrow('does not match its BLS key');
    const broken = keysFileEntry(a, undefined);
    broken.encrypted = { ciphertext: 'zz', kdf: 'argon2id' } as never;
    writeFileSync(file, JSON.stringify({ keys: [broken] }));
    let message = '';
    try {
      importGeneratorKeysFile(file, store);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('"encrypted" is malformed');
    expect(message).not.toContain(a.privateKey.toString('hex'));
    expect(store.allKeys()).toEqual([]);
    expect(readFileSync(file, 'utf8')).toContain('zz');
    env.close();
  });
});
