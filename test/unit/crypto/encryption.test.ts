import { describe, expect, it } from 'vitest';
import {
  decryptMessageWithPassword,
  decryptPassphraseV3,
  encryptMessageWithPassword,
  encryptPassphraseV3,
  parseEncryptedMessage,
  parseEncryptedPassphraseV3,
  stringifyEncryptedMessage,
  type EncryptedMessageObject,
  type EncryptMessageOptions,
} from '../../../src/crypto/index.js';
import { DecryptionError, FormatError } from '../../../src/errors.js';

const PASSWORD = 'Sup3r-Secret-Passw0rd';
const PLAINTEXT = 'economy cliff diamond van multiply general visa picture';
const SALT = Buffer.from('0102030405060708', 'hex');
const IV = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
/** Cheap argon2id so that the suite stays fast. */
const CHEAP: EncryptMessageOptions = { kdfparams: { iterations: 1, parallelism: 1, memorySize: 64 }, salt: SALT, iv: IV };

/** Every error thrown in this file, to check that none of them leaks a secret. */
const seenErrors: Error[] = [];
async function captureAsync(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    seenErrors.push(error as Error);
    return error as Error;
  }
  throw new Error('expected a rejection');
}
function capture(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    seenErrors.push(error as Error);
    return error as Error;
  }
  throw new Error('expected a throw');
}

function withTag(encrypted: EncryptedMessageObject, tag: string): EncryptedMessageObject {
  return { ...encrypted, cipherparams: { ...encrypted.cipherparams, tag } };
}

function flipFirstHexDigit(value: string): string {
  return (value[0] === '0' ? '1' : '0') + value.slice(1);
}

describe('v4 encryptMessageWithPassword', () => {
  it('round-trips with argon2id and is reproducible with injected salt and IV', async () => {
    const plaintext = Buffer.from(PLAINTEXT);
    const a = await encryptMessageWithPassword(plaintext, PASSWORD, CHEAP);
    const b = await encryptMessageWithPassword(plaintext, PASSWORD, CHEAP);
    expect(a).toEqual(b);
    expect(a.kdf).toBe('argon2id');
    expect(a.cipher).toBe('aes-128-gcm');
    expect(a.version).toBe('1');
    expect(a.kdfparams).toEqual({ parallelism: 1, iterations: 1, memorySize: 64, salt: SALT.toString('hex') });
    expect(a.cipherparams.iv).toBe(IV.toString('hex'));
    expect(a.mac).toMatch(/^[0-9a-f]{64}$/);
    expect((await decryptMessageWithPassword(a, PASSWORD)).toString()).toBe(PLAINTEXT);
    expect((await decryptMessageWithPassword(parseEncryptedMessage(stringifyEncryptedMessage(a)), PASSWORD)).toString()).toBe(PLAINTEXT);
  });

  it('uses Lisk defaults: argon2id t=1 p=4 m=2097023; PBKDF2 1e6; random 8-byte salt and 16-byte IV', async () => {
    const pbkdf2 = await encryptMessageWithPassword(Buffer.from('x'), PASSWORD, { kdf: 'PBKDF2', kdfparams: { iterations: 10 } });
    expect(pbkdf2.kdfparams.parallelism).toBe(4);
    expect(pbkdf2.kdfparams.memorySize).toBe(2097023);
    expect(pbkdf2.kdfparams.salt).toHaveLength(16);
    expect(pbkdf2.cipherparams.iv).toHaveLength(32);
    expect((await decryptMessageWithPassword(pbkdf2, PASSWORD)).toString()).toBe('x');
    const other = await encryptMessageWithPassword(Buffer.from('x'), PASSWORD, { kdf: 'PBKDF2', kdfparams: { iterations: 10 } });
    expect(other.kdfparams.salt).not.toBe(pbkdf2.kdfparams.salt);
  });

  it('round-trips empty and binary plaintexts', async () => {
    for (const plaintext of [Buffer.alloc(0), Buffer.from([0, 255, 1, 254])]) {
      const encrypted = await encryptMessageWithPassword(plaintext, PASSWORD, CHEAP);
      expect((await decryptMessageWithPassword(encrypted, PASSWORD)).equals(plaintext)).toBe(true);
    }
  });

  it('fails with DecryptionError for a wrong password or tampered data', async () => {
    const encrypted = await encryptMessageWithPassword(Buffer.from(PLAINTEXT), PASSWORD, CHEAP);
    expect(await captureAsync(decryptMessageWithPassword(encrypted, 'wrong'))).toBeInstanceOf(DecryptionError);
    const tamperedCiphertext = { ...encrypted, ciphertext: flipFirstHexDigit(encrypted.ciphertext) };
    expect(await captureAsync(decryptMessageWithPassword(tamperedCiphertext, PASSWORD))).toBeInstanceOf(DecryptionError);
    const tamperedTag = withTag(encrypted, flipFirstHexDigit(encrypted.cipherparams.tag));
    expect(await captureAsync(decryptMessageWithPassword(tamperedTag, PASSWORD))).toBeInstanceOf(DecryptionError);
    const tamperedSalt = { ...encrypted, kdfparams: { ...encrypted.kdfparams, salt: flipFirstHexDigit(encrypted.kdfparams.salt) } };
    expect(await captureAsync(decryptMessageWithPassword(tamperedSalt, PASSWORD))).toBeInstanceOf(DecryptionError);
    // mac is not checked (as in the SDK): a wrong mac still decrypts
    expect((await decryptMessageWithPassword({ ...encrypted, mac: '00' }, PASSWORD)).toString()).toBe(PLAINTEXT);
  });

  it('fails with FormatError for malformed objects', async () => {
    const encrypted = await encryptMessageWithPassword(Buffer.from(PLAINTEXT), PASSWORD, CHEAP);
    const malformed: EncryptedMessageObject[] = [
      withTag(encrypted, encrypted.cipherparams.tag.slice(2)), // 15-byte tag
      withTag(encrypted, 'zz'),
      { ...encrypted, ciphertext: `${encrypted.ciphertext}0` },
      { ...encrypted, ciphertext: 'xyz' },
      { ...encrypted, kdf: 'scrypt' as never },
      { ...encrypted, kdfparams: { ...encrypted.kdfparams, salt: '' } },
      { ...encrypted, kdfparams: { ...encrypted.kdfparams, iterations: 0 } },
      { ...encrypted, kdfparams: { ...encrypted.kdfparams, memorySize: 4 } },
      { ...encrypted, cipherparams: { ...encrypted.cipherparams, iv: 'abc' } },
    ];
    for (const object of malformed) {
      expect(await captureAsync(decryptMessageWithPassword(object, PASSWORD))).toBeInstanceOf(FormatError);
    }
    const tagError = await captureAsync(decryptMessageWithPassword(malformed[0]!, PASSWORD));
    expect(tagError.message).toBe('Tag must be 16 bytes.');
  });
});

describe('v4 string form', () => {
  const object: EncryptedMessageObject = {
    ciphertext: 'ae7412f3d7a4b7d57d79a5',
    mac: '31c845a921459a61f9ae5367721efa7c62b5508b0e147e22014a8b6c204de897',
    kdf: 'argon2id',
    kdfparams: { parallelism: 4, iterations: 1, memorySize: 1024, salt: 'fa1a71d47bb2bf14' },
    cipher: 'aes-128-gcm',
    cipherparams: { iv: 'ea76f4ec13a6317cc06bd3f686886b3e', tag: '4f94b7f4c39e793a7e9c8c7f1c75d39b' },
    version: '1',
  };
  const text = stringifyEncryptedMessage(object);

  it('stringifies in the SDK key order and parses back', () => {
    expect(text).toBe(
      'kdf=argon2id&cipher=aes-128-gcm&version=1&ciphertext=ae7412f3d7a4b7d57d79a5&mac=31c845a921459a61f9ae5367721efa7c62b5508b0e147e22014a8b6c204de897&salt=fa1a71d47bb2bf14&iv=ea76f4ec13a6317cc06bd3f686886b3e&tag=4f94b7f4c39e793a7e9c8c7f1c75d39b&iterations=1&parallelism=4&memorySize=1024',
    );
    expect(parseEncryptedMessage(text)).toEqual(object);
  });

  it('applies the argon2 defaults to absent or empty options', () => {
    const bare = text.replace('&iterations=1&parallelism=4&memorySize=1024', '&iterations=');
    expect(parseEncryptedMessage(bare).kdfparams).toEqual({ parallelism: 4, iterations: 1, memorySize: 2097023, salt: 'fa1a71d47bb2bf14' });
  });

  it('rejects missing, repeated, unknown and unparsable fields', () => {
    const cases = [
      text.replace('&mac=31c845a921459a61f9ae5367721efa7c62b5508b0e147e22014a8b6c204de897', ''),
      text.replace('kdf=argon2id&', ''),
      `${text}&salt=00`,
      `${text}&iterations=2`,
      text.replace('kdf=argon2id', 'kdf=scrypt'),
      text.replace('cipher=aes-128-gcm', 'cipher=aes-256-gcm'),
      text.replace('iterations=1', 'iterations=abc'),
    ];
    for (const bad of cases) expect(capture(() => parseEncryptedMessage(bad))).toBeInstanceOf(FormatError);
  });
});

describe('v3 encryptedPassphrase', () => {
  const SALT16 = Buffer.from('e3c1f8580b6c1b41b610eb24ca61c52f', 'hex');
  const IV12 = Buffer.from('95f5611522278829623079cb', 'hex');
  const SPEC_STRING =
    'iterations=1000000&cipherText=86206bab954e7c4a4be30ffe6a56dd&iv=95f5611522278829623079cb&salt=e3c1f8580b6c1b41b610eb24ca61c52f&tag=681a67787312999aa824559a804ec398&version=1';

  it('decrypts the spec example and re-encrypts it byte for byte', () => {
    expect(decryptPassphraseV3(SPEC_STRING, 'password')).toBe('some passphrase');
    expect(encryptPassphraseV3('some passphrase', 'password', { salt: SALT16, iv: IV12 })).toBe(SPEC_STRING);
  });

  it('round-trips with few iterations and random salt/IV', () => {
    const text = encryptPassphraseV3(PLAINTEXT, PASSWORD, { iterations: 10 });
    const parsed = parseEncryptedPassphraseV3(text);
    expect(parsed.iterations).toBe(10);
    expect(parsed.salt).toHaveLength(32);
    expect(parsed.iv).toHaveLength(24);
    expect(parsed.tag).toHaveLength(32);
    expect(parsed.version).toBe('1');
    expect(text.startsWith('iterations=10&cipherText=')).toBe(true);
    expect(decryptPassphraseV3(text, PASSWORD)).toBe(PLAINTEXT);
  });

  it('defaults iterations to 1 000 000 when absent', () => {
    const withoutIterations = SPEC_STRING.replace('iterations=1000000&', '');
    expect(parseEncryptedPassphraseV3(withoutIterations).iterations).toBe(1_000_000);
  });

  it('rejects corrupted strings with FormatError', () => {
    const text = encryptPassphraseV3(PLAINTEXT, PASSWORD, { iterations: 10, salt: SALT16, iv: IV12 });
    const corrupted = [
      text.replace(/&salt=[0-9a-f]+/, ''),
      text.replace(/&tag=[0-9a-f]+/, ''),
      text.replace('&version=1', ''),
      text.replace('version=1', 'version=2'),
      `${text}&iv=00`,
      text.replace('iterations=10', 'iterations=null'),
      text.replace('iterations=10', 'iterations=0'),
      text.replace(/tag=([0-9a-f]+)/, (_, tag: string) => `tag=${tag.slice(2)}`),
      text.replace(/cipherText=([0-9a-f]+)/, (_, c: string) => `cipherText=${c}x`),
      text.replace(/salt=([0-9a-f]+)/, (_, s: string) => `salt=${s}0`),
      'not a querystring',
    ];
    for (const bad of corrupted)
      expect(
        capture(() => decryptPassphraseV3(bad, PASSWORD)),
        bad,
      ).toBeInstanceOf(FormatError);
  });

  it('fails with DecryptionError for a wrong password or tampered ciphertext', () => {
    const text = encryptPassphraseV3(PLAINTEXT, PASSWORD, { iterations: 10 });
    expect(capture(() => decryptPassphraseV3(text, 'wrong'))).toBeInstanceOf(DecryptionError);
    const tampered = text.replace(/cipherText=([0-9a-f])/, (_, d: string) => `cipherText=${d === '0' ? '1' : '0'}`);
    expect(capture(() => decryptPassphraseV3(tampered, PASSWORD))).toBeInstanceOf(DecryptionError);
  });
});

describe('error messages', () => {
  it('never contain the password or the plaintext', () => {
    expect(seenErrors.length).toBeGreaterThan(20);
    for (const error of seenErrors) {
      expect(error.message).not.toContain(PASSWORD);
      expect(error.message).not.toContain(PLAINTEXT);
      expect(error.message).not.toContain('economy');
      expect(String(error.stack)).not.toContain(PASSWORD);
    }
  });
});
