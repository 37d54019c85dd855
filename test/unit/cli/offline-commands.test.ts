/**
 * Commands that need no node: hash-onion, passphrase:create/encrypt/decrypt
 * (docs/protocol/keys.md: v4 object, its string form and the v3 string), config:create/show.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/command.js';
import { configCreateCommand } from '../../../src/cli/commands/config-create.js';
import { configShowCommand } from '../../../src/cli/commands/config-show.js';
import { hashOnionCommand } from '../../../src/cli/commands/hash-onion.js';
import { passphraseCreateCommand } from '../../../src/cli/commands/passphrase-create.js';
import { passphraseDecryptCommand } from '../../../src/cli/commands/passphrase-decrypt.js';
import { passphraseEncryptCommand } from '../../../src/cli/commands/passphrase-encrypt.js';
import { TEST_ARGON2_MEMORY_ENV } from '../../../src/cli/support/encryption-options.js';
import { entropyToMnemonic, loadEnglishWordlist } from '../../../src/cli/support/mnemonic.js';
import { hashOnionStep, parseEncryptedPassphraseV3, stringifyEncryptedMessage } from '../../../src/crypto/index.js';
import { captureIO, withEnv } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'basalt-offline-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hash-onion', () => {
  it('prints count/distance/hashes whose checkpoints are `distance` hashes apart, the seed last', async () => {
    const io = captureIO();
    expect(await hashOnionCommand.run(['--count', '20', '--distance', '5'], io)).toBe(0);
    const onion = JSON.parse(io.out()) as { count: number; distance: number; hashes: string[] };
    expect(onion.count).toBe(20);
    expect(onion.distance).toBe(5);
    expect(onion.hashes).toHaveLength(5);
    for (let i = 1; i < onion.hashes.length; i += 1) {
      let value: Buffer = Buffer.from(onion.hashes[i] as string, 'hex');
      for (let step = 0; step < 5; step += 1) value = hashOnionStep(value);
      expect(value.toString('hex')).toBe(onion.hashes[i - 1]);
    }
    expect(io.out().includes('\n ')).toBe(false);
  });

  it('writes a 0600 file with --output; rejects bad counts with lisk-core messages', async () => {
    const io = captureIO();
    await hashOnionCommand.run(['-c', '4', '-d', '2', '--output', join(dir, 'onions')], io);
    const path = join(dir, 'onions', 'hash-onion.json');
    expect(io.out()).toBe(`Successfully written data to ${path}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((JSON.parse(readFileSync(path, 'utf8')) as { hashes: string[] }).hashes).toHaveLength(3);
    await expect(hashOnionCommand.run(['--count', '0'], captureIO())).rejects.toThrow('Count flag must be an integer and greater than 0.');
    await expect(hashOnionCommand.run(['--distance', '1.5'], captureIO())).rejects.toThrow(
      'Distance flag must be an integer and greater than 0.',
    );
    await expect(hashOnionCommand.run(['--count', '10', '--distance', '3'], captureIO())).rejects.toThrow(
      'Invalid count. Count must be multiple of distance',
    );
    await expect(hashOnionCommand.run(['--count', '2', '--distance', '3'], captureIO())).rejects.toThrow(UsageError);
  });
});

describe('passphrase:create', () => {
  it('builds BIP-39 mnemonics of the reference vectors', () => {
    const words = loadEnglishWordlist();
    expect(entropyToMnemonic(Buffer.alloc(32, 0), words)).toBe(`${'abandon '.repeat(23)}art`);
    expect(entropyToMnemonic(Buffer.alloc(32, 0xff), words)).toBe(`${'zoo '.repeat(23)}vote`);
    expect(entropyToMnemonic(Buffer.alloc(16, 0x7f), words)).toBe(
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
    );
    expect(entropyToMnemonic(Buffer.alloc(32, 0x80), words)).toBe(
      'letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless',
    );
  });

  it('prints 24 words of the wordlist', async () => {
    const io = captureIO();
    await passphraseCreateCommand.run([], io);
    const { passphrase } = JSON.parse(io.out()) as { passphrase: string };
    const words = new Set(loadEnglishWordlist());
    expect(passphrase.split(' ')).toHaveLength(24);
    for (const word of passphrase.split(' ')) expect(words.has(word)).toBe(true);
  });
});

describe('passphrase:encrypt and passphrase:decrypt', () => {
  const PHRASE = 'target cancel solution recipe vague faint bomb convince pink vendor fresh patrol';
  const twice = (secret: string) => `${secret}\n${secret}\n`;

  it('v4: the object decrypts back, also in its querystring form; --output-public-key adds the legacy key', async () => {
    const io = captureIO(`${twice(PHRASE)}${twice('pw')}`);
    await withEnv({ [TEST_ARGON2_MEMORY_ENV]: '64' }, () => passphraseEncryptCommand.run(['--output-public-key'], io));
    const result = JSON.parse(io.out()) as { encryptedPassphrase: Record<string, unknown>; publicKey: string };
    expect(result.publicKey).toBe('0792fecbbecf6e7370f7a7b217a9d159f380d3ecd0f2760d7a55dd3e27e97184');
    expect(result.encryptedPassphrase).toMatchObject({ kdf: 'argon2id', cipher: 'aes-128-gcm', version: '1' });
    expect(io.out()).not.toContain(PHRASE);

    const objectFile = join(dir, 'v4.json');
    writeFileSync(objectFile, JSON.stringify(result));
    const decrypted = captureIO('pw\n');
    await passphraseDecryptCommand.run(['--file-path', objectFile], decrypted);
    expect(decrypted.out()).toBe(`${JSON.stringify(PHRASE)}\n`);

    const stringFile = join(dir, 'v4-string.json');
    writeFileSync(stringFile, JSON.stringify({ encryptedPassphrase: stringifyEncryptedMessage(result.encryptedPassphrase as never) }));
    const fromString = captureIO();
    await passphraseDecryptCommand.run(['--file-path', stringFile, '--password', 'pw'], fromString);
    expect(fromString.out()).toBe(`${JSON.stringify(PHRASE)}\n`);

    await expect(passphraseDecryptCommand.run(['--file-path', objectFile, '--password', 'wrong'], captureIO())).rejects.toThrow(
      'Decryption failed: wrong password or corrupted data.',
    );
  });

  it('decrypts the v4 and v3 vectors of docs/protocol/keys.md', async () => {
    const v4 = join(dir, 'vector-v4.json');
    writeFileSync(
      v4,
      JSON.stringify({
        encryptedPassphrase: {
          ciphertext: '4d35e4d3c20434a2ff7b7c',
          mac: '8935284fb529cbe913356b8ebb155022a31a2f7eb49772721ba72c50b086037f',
          kdf: 'argon2id',
          kdfparams: { parallelism: 4, iterations: 1, memorySize: 1024, salt: 'b828b43f36d69745' },
          cipher: 'aes-128-gcm',
          cipherparams: { iv: '898c2f1d3a28462987450a924d7eb0fd', tag: 'b9518fbfabbc97dc88e69918dfd097db' },
          version: '1',
        },
      }),
    );
    const io4 = captureIO('pw\n');
    await passphraseDecryptCommand.run(['-f', v4], io4);
    expect(io4.out()).toBe('"hello world"\n');

    const v3 = join(dir, 'vector-v3.json');
    writeFileSync(
      v3,
      JSON.stringify({
        encryptedPassphrase:
          'iterations=1000000&cipherText=86206bab954e7c4a4be30ffe6a56dd&iv=95f5611522278829623079cb&salt=e3c1f8580b6c1b41b610eb24ca61c52f&tag=681a67787312999aa824559a804ec398&version=1',
      }),
    );
    const io3 = captureIO('password\n');
    await passphraseDecryptCommand.run(['-f', v3], io3);
    expect(io3.out()).toBe('"some passphrase"\n');
  });

  it('v3: --format v3 writes the Lisk Core 3.x string, 0600 with --output', async () => {
    const path = join(dir, 'enc', 'v3.json');
    const io = captureIO();
    await passphraseEncryptCommand.run(['--format', 'v3', '--passphrase', PHRASE, '--password', 'pw3', '--output', path], io);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const { encryptedPassphrase } = JSON.parse(readFileSync(path, 'utf8')) as { encryptedPassphrase: string };
    expect(parseEncryptedPassphraseV3(encryptedPassphrase).iterations).toBe(1_000_000);
    const back = captureIO('pw3\n');
    await passphraseDecryptCommand.run(['-f', path], back);
    expect(back.out()).toBe(`${JSON.stringify(PHRASE)}\n`);
    await expect(passphraseEncryptCommand.run(['--format', 'v5'], captureIO())).rejects.toThrow(UsageError);
  });
});

describe('config:create and config:show', () => {
  it('writes the defaults with the chain ID and data path; refuses to overwrite without --overwrite', async () => {
    const target = join(dir, 'mychain');
    const io = captureIO();
    await configCreateCommand.run(['--chain-id', '04ABCDEF', '--output', target, '--label', 'beta-app'], io);
    const path = join(target, 'config.json');
    expect(io.out()).toBe(`Successfully written data to ${path}\n`);
    const config = JSON.parse(readFileSync(path, 'utf8')) as {
      system: { dataPath: string };
      genesis: { chainID: string; blockTime: number };
      rpc: { port: number };
    };
    expect(config.genesis.chainID).toBe('04abcdef');
    expect(config.system.dataPath).toBe('~/.basalt/beta-app');
    expect(config.genesis.blockTime).toBe(10);
    expect(config.rpc.port).toBe(7887);
    await expect(configCreateCommand.run(['--chain-id', '04abcdef', '--output', target], captureIO())).rejects.toThrow('already exists');
    await configCreateCommand.run(['--chain-id', '04abcdef', '--output', target, '--overwrite'], captureIO());
    await expect(configCreateCommand.run(['--chain-id', '0400'], captureIO())).rejects.toThrow(
      'Invalid chain ID format. ChainID must be in hex format with 8 characters',
    );
  });

  it('shows the stored config with a custom config merged and the data path set', async () => {
    const dataPath = join(dir, 'data');
    mkdirSync(join(dataPath, 'config'), { recursive: true });
    writeFileSync(
      join(dataPath, 'config', 'config.json'),
      JSON.stringify({ system: { dataPath: '~/elsewhere' }, rpc: { port: 1, modes: ['ipc', 'ws'] } }),
    );
    const custom = join(dir, 'custom.json');
    writeFileSync(custom, JSON.stringify({ rpc: { modes: ['http'] } }));
    const io = captureIO();
    await configShowCommand.run(['--data-path', dataPath, '--config', custom], io);
    expect(JSON.parse(io.out())).toEqual({ system: { dataPath }, rpc: { port: 1, modes: ['http'] } });
    await expect(configShowCommand.run(['--data-path', join(dir, 'nothing')], captureIO())).rejects.toThrow(
      `Folder in ${join(dir, 'nothing')} does not contain valid config`,
    );
  });
});
