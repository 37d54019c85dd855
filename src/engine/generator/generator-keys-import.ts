import { readFileSync } from 'node:fs';
import { validationErrors } from '../../codec/index.js';
import { ConfigError } from '../../config/config-error.js';
import { decodeLisk32 } from '../../crypto/index.js';
import { keypairFromPlainKeys, type GeneratorKeypair } from './generator-keypair.js';
import {
  encodeEncryptedKeys,
  encryptedKeysJsonSchema,
  plainKeysJsonSchema,
  type GeneratorStore,
  type PlainGeneratorKeys,
  type StoredEncryptedKeys,
} from './generator-store.js';

interface KeysFileEntry {
  address?: unknown;
  plain?: Record<string, unknown>;
  encrypted?: Record<string, unknown>;
}

const hasMembers = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.keys(value).length > 0;

/**
 * Throws unless `value` satisfies `schema`, whose shape the caller names as `T`. Schema problems
 * are reported as paths and reasons only: the validator never echoes values (no key leaks).
 */
function checkShape<T>(schema: object, value: unknown, what: string): asserts value is T {
  const problems = validationErrors(schema, value);
  if (problems.length > 0) throw new ConfigError(`${what} is malformed (${problems.slice(0, 3).join('; ')}).`);
}

/** The plain keys of a keys.json entry as bytes (hex checked, consistency checked by the caller). */
export function plainKeysFromJson(plain: Record<string, unknown>, what: string): PlainGeneratorKeys {
  checkShape(plainKeysJsonSchema, plain, what);
  return {
    generatorKey: Buffer.from(plain.generatorKey as string, 'hex'),
    generatorPrivateKey: Buffer.from(plain.generatorPrivateKey as string, 'hex'),
    blsKey: Buffer.from(plain.blsKey as string, 'hex'),
    blsPrivateKey: Buffer.from(plain.blsPrivateKey as string, 'hex'),
  };
}

/**
 * Imports a Lisk `keys.json` (docs/protocol/keys.md) into the generator store,
 * as lisk-sdk's generator does with `generator.keys.fromFile`: an entry with a non-empty
 * `encrypted` object is stored encrypted (its plain keys, if any, are NOT stored), otherwise
 * its plain keys are stored. Returns the keypairs of every plain key now in the store (see
 * `storedPlainKeypairs`): those are the validators that generate without a password.
 */
export function importGeneratorKeysFile(path: string, store: GeneratorStore): GeneratorKeypair[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { keys?: KeysFileEntry[] };
  if (!Array.isArray(parsed.keys)) throw new ConfigError(`Keys file ${path} has no "keys" array.`);
  for (const entry of parsed.keys) {
    if (typeof entry.address !== 'string') throw new ConfigError(`Keys file ${path}: an entry has no address.`);
    const label = `Keys file ${path}: entry ${entry.address}`;
    const address = decodeLisk32(entry.address);
    if (hasMembers(entry.encrypted)) {
      const encrypted: unknown = entry.encrypted;
      checkShape<StoredEncryptedKeys>(encryptedKeysJsonSchema, encrypted, `${label}: "encrypted"`);
      store.setKeys(address, { type: 'encrypted', data: encodeEncryptedKeys(encrypted) });
    } else if (hasMembers(entry.plain)) {
      const plain = plainKeysFromJson(entry.plain, `${label}: "plain"`);
      keypairFromPlainKeys(address, plain); // refuse inconsistent keys before storing them
      store.setKeys(address, { type: 'plain', data: plain });
    }
  }
  return storedPlainKeypairs(store);
}

/**
 * The keypairs of every validator whose keys are stored plain (lisk-sdk generator
 * `_loadGenerators`): a node enables them at start-up; encrypted keys wait for
 * `generator_updateStatus` with the password. Throws when stored plain keys are inconsistent.
 */
export function storedPlainKeypairs(store: GeneratorStore): GeneratorKeypair[] {
  const keypairs: GeneratorKeypair[] = [];
  for (const { address, keys } of store.allKeys()) {
    if (keys.type === 'plain') keypairs.push(keypairFromPlainKeys(address, keys.data));
  }
  return keypairs;
}
