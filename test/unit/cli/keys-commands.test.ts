/**
 * keys:create and keys:encrypt (docs/protocol/keys.md) run in-process with
 * stdin fed from a pipe: the derivation vectors of keys.md, --add-legacy's counting, the key file
 * (0600, Lisk's member order), encryption that decrypts to the plain keys, and prompt errors.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/command.js';
import { keysCreateCommand } from '../../../src/cli/commands/keys-create.js';
import { keysEncryptCommand } from '../../../src/cli/commands/keys-encrypt.js';
import { encryptionOptions, TEST_ARGON2_MEMORY_ENV } from '../../../src/cli/support/encryption-options.js';
import { plainKeysPlaintext, type KeysFileEntry } from '../../../src/cli/support/keys-file.js';
import { decryptMessageWithPassword, type EncryptedMessageObject } from '../../../src/crypto/index.js';
import { captureIO, withEnv } from './support.js';

const PHRASE = 'target cancel solution recipe vague faint bomb convince pink vendor fresh patrol';
const twice = (secret: string) => `${secret}\n${secret}\n`;
const dir = mkdtempSync(join(tmpdir(), 'basalt-keys-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function create(args: string[], input: string) {
  const io = captureIO(input);
  const code = await keysCreateCommand.run(args, io);
  return { code, io };
}

describe('keys:create', () => {
  it('derives the keys of the keys.md vectors (chainid 0, n = 0) and prints them with --output -', async () => {
    const { code, io } = await create(['--no-encrypt', '--output', '-'], twice(PHRASE));
    expect(code).toBe(0);
    const { keys } = JSON.parse(io.out()) as { keys: KeysFileEntry[] };
    expect(keys).toHaveLength(1);
    const [entry] = keys as [KeysFileEntry];
    expect(Object.keys(entry)).toEqual(['address', 'keyPath', 'publicKey', 'privateKey', 'plain', 'encrypted']);
    expect(Object.keys(entry.plain ?? {})).toEqual([
      'generatorKeyPath',
      'generatorKey',
      'generatorPrivateKey',
      'blsKeyPath',
      'blsKey',
      'blsProofOfPossession',
      'blsPrivateKey',
    ]);
    expect(entry).toMatchObject({
      address: 'lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2',
      keyPath: "m/44'/134'/0'",
      publicKey: 'c6bae83af23540096ac58d5121b00f33be6f02f05df785766725acdd5d48be9d',
      plain: {
        generatorKeyPath: "m/25519'/134'/0'/0'",
        generatorKey: '69f332687a37cb1273ca3560c5d3f4f5b7e88e48c4cbe6f26b8e08c2771d897f',
        blsKeyPath: 'm/12381/134/0/0',
        blsKey: '99a0f476450800e46f649aace85e211c55263005f6c836533f6a8a17a95514e76f2344730b7a30c226f341321f9eb761',
        blsProofOfPossession:
          'b77fbd435fa5fe514841bab2ffed377000046b896433f511c45321a1a9e715ad7c99afa5df7028a92a991ee4d66d25db0711a238db1f50805be80c3927e29d371fdc4333258122f8070038b1dcda0ff8f64eff95851e1a83b9393c6f78ebcae8',
        blsPrivateKey: '33ffce733bc160da4cf3b570bd592c588a3ce0f58b11f6322cc2843555c96fd7',
      },
      encrypted: {},
    });
    expect(entry.privateKey?.endsWith(entry.publicKey as string)).toBe(true);
    // Questions go to stderr, never the answers.
    expect(io.err()).toBe('Please enter passphrase: \nPlease re-enter passphrase: \n');
  });

  it('--chainid changes the generator path: chainid 1 gives the keys.md testnet generator key', async () => {
    const { io } = await create(['--no-encrypt', '--output', '-', '--chainid', '1', '--passphrase', PHRASE], '');
    const [entry] = (JSON.parse(io.out()) as { keys: KeysFileEntry[] }).keys as [KeysFileEntry];
    expect(entry.plain?.generatorKey).toBe('0899767862e47608f810957979122476246fb2e9690dd604ee2c8d32923bad86');
    expect(entry.plain?.generatorKeyPath).toBe("m/25519'/134'/1'/0'");
    expect(io.err()).toBe('');
  });

  it('--add-legacy: the legacy entry counts toward --count and the regular ones start at index 1', async () => {
    const { io } = await create(['--no-encrypt', '--output', '-', '--add-legacy', '--count', '2'], twice(PHRASE));
    const keys = (JSON.parse(io.out()) as { keys: KeysFileEntry[] }).keys;
    expect(keys.map((key) => key.keyPath)).toEqual(['legacy', "m/44'/134'/1'"]);
    expect(keys[0]).toMatchObject({
      address: 'lskr4npg3esse6duo56u2war7umuo8embs4cwrkaf',
      publicKey: '0792fecbbecf6e7370f7a7b217a9d159f380d3ecd0f2760d7a55dd3e27e97184',
      plain: {
        generatorKeyPath: 'legacy',
        generatorKey: '0792fecbbecf6e7370f7a7b217a9d159f380d3ecd0f2760d7a55dd3e27e97184',
        blsKeyPath: 'm/12381/134/0/99999',
        blsKey: 'a7b2d03f07d6436e75705febf56daf2c5f19e0d0a42c7d589c2a6f3354e5d7745949c5d21c94193b5d51d74efd801d3c',
      },
    });
    const only = await create(['--no-encrypt', '--output', '-', '--add-legacy', '--offset', '5'], twice(PHRASE));
    expect((JSON.parse(only.io.out()) as { keys: KeysFileEntry[] }).keys.map((key) => key.keyPath)).toEqual(['legacy']);
  });

  it('writes an encrypted 0600 key file that decrypts to the plain keys (test-only argon2 cost)', async () => {
    const path = join(dir, 'out', 'validator.json');
    writeFileSync(join(dir, 'existing.json'), '{}', { mode: 0o644 });
    const { code, io } = await withEnv({ [TEST_ARGON2_MEMORY_ENV]: '64' }, () =>
      create(['--output', path, '--offset', '3', '--count', '2', '--chainid', '4'], `${twice(PHRASE)}${twice('pw-123')}`),
    );
    expect(code).toBe(0);
    expect(io.out()).toBe(`Successfully written data to ${path}\n`);
    expect(io.err()).toContain(`WARNING: ${TEST_ARGON2_MEMORY_ENV} is set`);
    expect(io.err()).not.toContain('pw-123');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('{\n "keys": [\n  {\n   "address"')).toBe(true); // one-space indentation
    const keys = (JSON.parse(text) as { keys: KeysFileEntry[] }).keys;
    expect(keys.map((key) => key.keyPath)).toEqual(["m/44'/134'/3'", "m/44'/134'/4'"]);
    for (const key of keys) {
      const encrypted = key.encrypted as EncryptedMessageObject;
      expect(Object.keys(encrypted)).toEqual(['ciphertext', 'mac', 'kdf', 'kdfparams', 'cipher', 'cipherparams', 'version']);
      expect(encrypted.kdfparams).toMatchObject({ parallelism: 4, iterations: 1, memorySize: 64 });
      expect(encrypted.ciphertext).toHaveLength(368);
      expect((await decryptMessageWithPassword(encrypted, 'pw-123')).equals(plainKeysPlaintext(key.plain as never))).toBe(true);
    }
  });

  it('a directory --output receives keys.json, an existing wider-mode file is replaced by a 0600 one', async () => {
    const target = join(dir, 'keysdir');
    const path = join(target, 'keys.json');
    await create(['--no-encrypt', '--output', target], twice(PHRASE));
    chmodSync(path, 0o644);
    await create(['--no-encrypt', '--output', target], twice(PHRASE));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a missing --output, bad numbers, and secrets that are empty or not repeated', async () => {
    await expect(create([], '')).rejects.toThrow(UsageError);
    await expect(create(['--output', '-', '--count', '0'], '')).rejects.toThrow(UsageError);
    await expect(create(['--output', '-', '--offset', 'x'], '')).rejects.toThrow(UsageError);
    await expect(create(['--output', '-', 'extra secret words'], '')).rejects.toThrow('Too many arguments: this command takes at most 0.');
    await expect(create(['--output', '-'], `${PHRASE}\nother\n`)).rejects.toThrow('Passphrase was not successfully repeated.');
    await expect(create(['--output', '-'], '\n\n')).rejects.toThrow('Passphrase was not successfully repeated.');
    await expect(create(['--output', '-'], `${twice(PHRASE)}pw\npx\n`)).rejects.toThrow('Password was not successfully repeated.');
    await expect(create(['--output', '-'], '')).rejects.toThrow('No answer: the input ended before the prompt was answered.');
  });
});

describe('encryption settings', () => {
  it("keep Lisk's defaults unless the test-only variable is set, which warns", () => {
    const io = captureIO();
    expect(encryptionOptions(io.stderr, {})).toEqual({});
    expect(io.err()).toBe('');
    expect(encryptionOptions(io.stderr, { [TEST_ARGON2_MEMORY_ENV]: '256' })).toEqual({ kdfparams: { memorySize: 256 } });
    expect(io.err()).toContain('This is for tests only');
    expect(() => encryptionOptions(io.stderr, { [TEST_ARGON2_MEMORY_ENV]: '8' })).toThrow('must be a whole number of KiB from 32');
  });
});

describe('keys:encrypt', () => {
  it('adds the encrypted section to every entry of a plain key file, in place, 0600', async () => {
    const path = join(dir, 'plain-keys.json');
    await create(['--no-encrypt', '--output', path, '--count', '2'], twice(PHRASE));
    chmodSync(path, 0o644);
    const io = captureIO(twice('another-pw'));
    await withEnv({ [TEST_ARGON2_MEMORY_ENV]: '64' }, () => keysEncryptCommand.run(['--file-path', path], io));
    expect(io.out()).toBe(`Successfully written data to ${path}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const keys = (JSON.parse(readFileSync(path, 'utf8')) as { keys: KeysFileEntry[] }).keys;
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const plaintext = await decryptMessageWithPassword(key.encrypted as EncryptedMessageObject, 'another-pw');
      expect(plaintext.equals(plainKeysPlaintext(key.plain as never))).toBe(true);
    }
    await expect(keysEncryptCommand.run([], captureIO())).rejects.toThrow(UsageError);
    await expect(keysEncryptCommand.run(['--file-path', join(dir, 'none.json')], captureIO())).rejects.toThrow('does not exist.');
  });
});
