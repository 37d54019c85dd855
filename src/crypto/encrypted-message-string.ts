/**
 * The querystring form of an EncryptedMessageObject (SDK `stringifyEncryptedMessage` /
 * `parseEncryptedMessage`):
 * kdf=…&cipher=…&version=…&ciphertext=…&mac=…&salt=…&iv=…&tag=…&iterations=…&parallelism=…&memorySize=…
 */
import { parse, stringify } from 'node:querystring';
import { FormatError } from '../errors.js';
import {
  ARGON2_DEFAULT_ITERATIONS,
  ARGON2_DEFAULT_MEMORY_SIZE,
  ARGON2_DEFAULT_PARALLELISM,
  type EncryptedMessageObject,
} from './encrypted-message.js';

/** The querystring form, keys in the SDK's order. */
export function stringifyEncryptedMessage(encrypted: EncryptedMessageObject): string {
  if (typeof encrypted !== 'object' || encrypted === null) {
    throw new FormatError('Encrypted message to stringify must be an object.');
  }
  return stringify({
    kdf: encrypted.kdf,
    cipher: encrypted.cipher,
    version: encrypted.version,
    ciphertext: encrypted.ciphertext,
    mac: encrypted.mac,
    salt: encrypted.kdfparams.salt,
    iv: encrypted.cipherparams.iv,
    tag: encrypted.cipherparams.tag,
    iterations: encrypted.kdfparams.iterations,
    parallelism: encrypted.kdfparams.parallelism,
    memorySize: encrypted.kdfparams.memorySize,
  });
}

/** An optional integer option: absent or empty → undefined; otherwise parseInt, as the SDK does. */
function parseOption(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const parsed = Number.parseInt(value, 10);
  if (Number.isNaN(parsed)) throw new FormatError('Could not parse option.');
  return parsed;
}

/**
 * Parses the querystring form. Required single-valued keys: kdf, cipher, ciphertext, iv, tag,
 * salt, version, mac; optional: iterations, parallelism, memorySize (defaults 1, 4, 2097023 —
 * the argon2 defaults, even for PBKDF2, as in the SDK). kdf must be argon2id or PBKDF2 and
 * cipher aes-128-gcm. Throws FormatError otherwise.
 */
export function parseEncryptedMessage(text: string): EncryptedMessageObject {
  if (typeof text !== 'string') throw new FormatError('Encrypted message to parse must be a string.');
  const fields = parse(text);
  const single = (key: string): string | undefined => {
    const value = fields[key];
    if (Array.isArray(value)) throw new FormatError('Encrypted message to parse must have only one value per key.');
    return value;
  };
  const required = (key: string): string => {
    const value = single(key);
    if (value === undefined) throw new FormatError('Encrypted message to parse must have only one value per key.');
    return value;
  };
  const kdf = required('kdf');
  const cipher = required('cipher');
  const ciphertext = required('ciphertext');
  const iv = required('iv');
  const tag = required('tag');
  const salt = required('salt');
  const version = required('version');
  const mac = required('mac');
  const iterations = parseOption(single('iterations'));
  const parallelism = parseOption(single('parallelism'));
  const memorySize = parseOption(single('memorySize'));
  if (kdf !== 'argon2id' && kdf !== 'PBKDF2') throw new FormatError('KDF must be one of argon2id,PBKDF2');
  if (cipher !== 'aes-128-gcm') throw new FormatError('Cipher must be one of aes-128-gcm');
  return {
    version,
    ciphertext,
    mac,
    kdf,
    kdfparams: {
      parallelism: parallelism ?? ARGON2_DEFAULT_PARALLELISM,
      iterations: iterations ?? ARGON2_DEFAULT_ITERATIONS,
      memorySize: memorySize ?? ARGON2_DEFAULT_MEMORY_SIZE,
      salt,
    },
    cipher,
    cipherparams: { iv, tag },
  };
}
