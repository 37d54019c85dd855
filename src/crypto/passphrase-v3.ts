/**
 * The Lisk Core 1.x–3.x `encryptedPassphrase` string (lisk-cryptography ≤ 3.x;
 * docs/protocol/keys.md): PBKDF2-HMAC-SHA256 (16-byte salt, default 1 000 000 iterations,
 * 32-byte key) → AES-256-GCM (12-byte IV, 16-byte tag) over the UTF-8 passphrase, written as
 * iterations=…&cipherText=…&iv=…&salt=…&tag=…&version=1. The v4 format cannot read it.
 */
import { createCipheriv, createDecipheriv, pbkdf2Sync } from 'node:crypto';
import { parse, stringify } from 'node:querystring';
import { DecryptionError, FormatError } from '../errors.js';
import { decodeHexField } from './hex-input.js';
import { randomBytes } from './random.js';

export const PASSPHRASE_V3_DEFAULT_ITERATIONS = 1_000_000;
export const PASSPHRASE_V3_VERSION = '1';
const SALT_LENGTH = 16;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
const KEY_LENGTH = 32;

export interface EncryptPassphraseV3Options {
  readonly iterations?: number;
  /** 16 random bytes unless given. */
  readonly salt?: Uint8Array;
  /** 12 random bytes unless given. */
  readonly iv?: Uint8Array;
}

/** The parsed fields of an encryptedPassphrase string. */
export interface EncryptedPassphraseV3 {
  readonly iterations: number;
  readonly cipherText: string;
  readonly iv: string;
  readonly salt: string;
  readonly tag: string;
  readonly version: string;
}

function checkIterations(iterations: number): number {
  if (!Number.isSafeInteger(iterations) || iterations < 1) {
    throw new FormatError('Iterations must be a positive integer.');
  }
  return iterations;
}

/** Encrypts a passphrase into the v3 string form (SDK 3.x encryptPassphraseWithPassword + stringify). */
export function encryptPassphraseV3(passphrase: string, password: string, options: EncryptPassphraseV3Options = {}): string {
  const iterations = checkIterations(options.iterations ?? PASSPHRASE_V3_DEFAULT_ITERATIONS);
  const salt = options.salt ?? randomBytes(SALT_LENGTH);
  const iv = options.iv ?? randomBytes(IV_LENGTH);
  if (salt.length === 0 || iv.length === 0) throw new FormatError('Salt and IV must not be empty.');
  const key = pbkdf2Sync(password, salt, iterations, KEY_LENGTH, 'sha256');
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const cipherText = Buffer.concat([cipher.update(passphrase, 'utf8'), cipher.final()]);
  key.fill(0);
  return stringify({
    iterations,
    cipherText: cipherText.toString('hex'),
    iv: Buffer.from(iv).toString('hex'),
    salt: Buffer.from(salt).toString('hex'),
    tag: cipher.getAuthTag().toString('hex'),
    version: PASSPHRASE_V3_VERSION,
  });
}

/**
 * Parses the string form with the SDK 3.x rules: salt, cipherText, iv, tag and version are
 * required and single-valued; iterations is optional (default 1 000 000; parseInt, so "12abc"
 * reads as 12) and must parse. Basalt also requires version "1", the only one ever written.
 */
export function parseEncryptedPassphraseV3(text: string): EncryptedPassphraseV3 {
  if (typeof text !== 'string') throw new FormatError('Encrypted passphrase to parse must be a string.');
  const fields = parse(text);
  const { iterations, salt, cipherText, iv, tag, version } = fields;
  if (
    (typeof iterations !== 'string' && iterations !== undefined) ||
    typeof salt !== 'string' ||
    typeof cipherText !== 'string' ||
    typeof iv !== 'string' ||
    typeof tag !== 'string' ||
    typeof version !== 'string'
  ) {
    throw new FormatError('Encrypted passphrase to parse must have only one value per key.');
  }
  let parsedIterations = PASSPHRASE_V3_DEFAULT_ITERATIONS;
  if (iterations !== undefined) {
    parsedIterations = Number.parseInt(iterations, 10);
    if (Number.isNaN(parsedIterations)) throw new FormatError('Could not parse iterations.');
    checkIterations(parsedIterations);
  }
  if (version !== PASSPHRASE_V3_VERSION) {
    throw new FormatError(`Unsupported encrypted passphrase version "${version}" (expected "1").`);
  }
  return { iterations: parsedIterations, cipherText, iv, salt, tag, version };
}

/**
 * Decrypts a v3 encryptedPassphrase string. FormatError for a malformed string;
 * DecryptionError for a wrong password or tampered data.
 */
export function decryptPassphraseV3(text: string, password: string): string {
  const parsed = parseEncryptedPassphraseV3(text);
  const tag = decodeHexField(parsed.tag, 'Tag');
  if (tag.length !== TAG_LENGTH) throw new FormatError('Tag must be 16 bytes.');
  const salt = decodeHexField(parsed.salt, 'Salt');
  const iv = decodeHexField(parsed.iv, 'IV');
  const cipherText = decodeHexField(parsed.cipherText, 'Cipher text');
  const key = pbkdf2Sync(password, salt, parsed.iterations, KEY_LENGTH, 'sha256');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(cipherText), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptionError();
  } finally {
    key.fill(0);
  }
}
