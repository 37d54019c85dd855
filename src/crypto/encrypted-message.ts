/**
 * Password encryption of Lisk v4 (SDK `encrypt.encryptMessageWithPassword`, version "1";
 * docs/protocol/keys.md): a key is derived from the password with argon2id (default) or
 * PBKDF2-HMAC-SHA256; its first 16 bytes key AES-128-GCM with a 16-byte IV; `mac` =
 * SHA-256(key[16..32) ‖ ciphertext) is emitted for compatibility but, as in the SDK, never checked:
 * the GCM tag alone authenticates.
 */
import { createCipheriv, createDecipheriv, createHash, pbkdf2Sync } from 'node:crypto';
import { argon2id } from 'hash-wasm';
import { CryptoError, DecryptionError, FormatError } from '../errors.js';
import { decodeHexField } from './hex-input.js';
import { randomBytes } from './random.js';

export type KeyDerivationFunction = 'argon2id' | 'PBKDF2';

export interface EncryptedMessageObject {
  readonly ciphertext: string;
  readonly mac: string;
  readonly kdf: KeyDerivationFunction;
  readonly kdfparams: {
    readonly parallelism: number;
    readonly iterations: number;
    readonly memorySize: number;
    readonly salt: string;
  };
  readonly cipher: 'aes-128-gcm';
  readonly cipherparams: {
    readonly iv: string;
    readonly tag: string;
  };
  readonly version: string;
}

/**
 * What decryption needs. The node's key store drops `mac` (lisk-sdk generator_store.ts), and
 * neither `mac` nor `cipher` is used to decrypt, so both are optional here.
 */
export type EncryptedMessageInput = Omit<EncryptedMessageObject, 'mac' | 'cipher'> & {
  readonly mac?: string;
  readonly cipher?: string;
};

export interface EncryptMessageOptions {
  readonly kdf?: KeyDerivationFunction;
  readonly kdfparams?: {
    readonly parallelism?: number;
    readonly iterations?: number;
    readonly memorySize?: number;
  };
  /** 8 random bytes unless given (tests inject it for reproducible output). */
  readonly salt?: Uint8Array;
  /** 16 random bytes unless given. */
  readonly iv?: Uint8Array;
}

/** Lisk's defaults (lisk-cryptography 4.x). memorySize is in KiB: 2 097 023 KiB ≈ 2 GiB. */
export const ARGON2_DEFAULT_ITERATIONS = 1;
export const ARGON2_DEFAULT_PARALLELISM = 4;
export const ARGON2_DEFAULT_MEMORY_SIZE = 2097023;
export const PBKDF2_DEFAULT_ITERATIONS = 1_000_000;
export const ENCRYPTION_VERSION = '1';

const SALT_LENGTH = 8;
const IV_LENGTH = 16;
const TAG_LENGTH = 16;
const DERIVED_KEY_LENGTH = 32;
const AES_KEY_LENGTH = 16;

interface KdfInput {
  readonly kdf: KeyDerivationFunction;
  readonly salt: Uint8Array;
  readonly iterations: number;
  readonly parallelism: number;
  readonly memorySize: number;
}

function checkPositiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new FormatError(`KDF parameter ${name} must be a positive integer.`);
  }
  return value;
}

async function deriveKey(password: string, input: KdfInput): Promise<Buffer> {
  if (input.kdf === 'PBKDF2') {
    return pbkdf2Sync(password, input.salt, input.iterations, DERIVED_KEY_LENGTH, 'sha256');
  }
  if (input.memorySize < 8 * input.parallelism) {
    throw new FormatError('KDF parameter memorySize must be at least 8 KiB per lane (8 × parallelism).');
  }
  try {
    return Buffer.from(
      await argon2id({
        password,
        salt: input.salt,
        iterations: input.iterations,
        parallelism: input.parallelism,
        memorySize: input.memorySize,
        hashLength: DERIVED_KEY_LENGTH,
        outputType: 'binary',
      }),
    );
  } catch {
    // hash-wasm reports parameter problems (e.g. a salt under 8 bytes) and out-of-memory alike.
    throw new CryptoError('argon2id key derivation failed (invalid parameters or not enough memory).');
  }
}

/** Encrypts `plaintext` under `password` (lisk-cryptography encryptMessageWithPassword). */
export async function encryptMessageWithPassword(
  plaintext: Uint8Array,
  password: string,
  options: EncryptMessageOptions = {},
): Promise<EncryptedMessageObject> {
  const kdf = options.kdf ?? 'argon2id';
  if (kdf !== 'argon2id' && kdf !== 'PBKDF2') throw new FormatError('KDF must be one of argon2id,PBKDF2');
  const salt = options.salt ?? randomBytes(SALT_LENGTH);
  const iv = options.iv ?? randomBytes(IV_LENGTH);
  if (salt.length === 0 || iv.length === 0) throw new FormatError('Salt and IV must not be empty.');
  const defaultIterations = kdf === 'argon2id' ? ARGON2_DEFAULT_ITERATIONS : PBKDF2_DEFAULT_ITERATIONS;
  const iterations = checkPositiveInteger(options.kdfparams?.iterations ?? defaultIterations, 'iterations');
  const parallelism = checkPositiveInteger(options.kdfparams?.parallelism ?? ARGON2_DEFAULT_PARALLELISM, 'parallelism');
  const memorySize = checkPositiveInteger(options.kdfparams?.memorySize ?? ARGON2_DEFAULT_MEMORY_SIZE, 'memorySize');

  const key = await deriveKey(password, { kdf, salt, iterations, parallelism, memorySize });
  const cipher = createCipheriv('aes-128-gcm', key.subarray(0, AES_KEY_LENGTH), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const tag = cipher.getAuthTag();
  const mac = createHash('sha256').update(key.subarray(AES_KEY_LENGTH)).update(ciphertext).digest('hex');
  key.fill(0);

  return {
    ciphertext: ciphertext.toString('hex'),
    mac,
    kdf,
    kdfparams: { parallelism, iterations, memorySize, salt: Buffer.from(salt).toString('hex') },
    cipher: 'aes-128-gcm',
    cipherparams: { iv: Buffer.from(iv).toString('hex'), tag: tag.toString('hex') },
    version: ENCRYPTION_VERSION,
  };
}

/**
 * Decrypts an EncryptedMessageObject. FormatError for a malformed object (bad hex, a tag that
 * is not 16 bytes, unknown KDF, bad KDF parameters); DecryptionError for a wrong password or
 * tampered data. Like the SDK, neither `mac`, `cipher` nor `version` is checked.
 */
export async function decryptMessageWithPassword(encrypted: EncryptedMessageInput, password: string): Promise<Buffer> {
  if (typeof encrypted !== 'object' || encrypted === null) {
    throw new FormatError('Encrypted message must be an object.');
  }
  const { kdf, kdfparams, cipherparams } = encrypted;
  if (kdf !== 'argon2id' && kdf !== 'PBKDF2') throw new FormatError('KDF must be one of argon2id,PBKDF2');
  if (typeof kdfparams !== 'object' || kdfparams === null || typeof cipherparams !== 'object' || cipherparams === null) {
    throw new FormatError('Encrypted message must have kdfparams and cipherparams.');
  }
  const tag = decodeHexField(cipherparams.tag, 'Tag');
  if (tag.length !== TAG_LENGTH) throw new FormatError('Tag must be 16 bytes.');
  const iv = decodeHexField(cipherparams.iv, 'IV');
  const salt = decodeHexField(kdfparams.salt, 'Salt');
  const ciphertext = decodeHexField(encrypted.ciphertext, 'Cipher text', true);
  const iterations = checkPositiveInteger(kdfparams.iterations, 'iterations');
  const parallelism = kdf === 'argon2id' ? checkPositiveInteger(kdfparams.parallelism, 'parallelism') : 0;
  const memorySize = kdf === 'argon2id' ? checkPositiveInteger(kdfparams.memorySize, 'memorySize') : 0;

  const key = await deriveKey(password, { kdf, salt, iterations, parallelism, memorySize });
  try {
    const decipher = createDecipheriv('aes-128-gcm', key.subarray(0, AES_KEY_LENGTH), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new DecryptionError();
  } finally {
    key.fill(0);
  }
}
