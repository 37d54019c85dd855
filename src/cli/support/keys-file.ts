/**
 * Lisk's validator key file, `keys.json` (docs/protocol/keys.md): what keys:create writes,
 * keys:encrypt rewrites, keys:import reads and keys:export/generator:export produce. Members
 * appear in the order Lisk's tools write them.
 */
import { readFileSync } from 'node:fs';
import { codec, validationErrors } from '../../codec/index.js';
import { encryptMessageWithPassword, type EncryptMessageOptions, type EncryptedMessageObject } from '../../crypto/index.js';
import { keysFileSchema, type KeysFile, type KeysFileEntry, type PlainKeysJSON } from '../../config/keys-file-entry.js';
import { plainGeneratorKeysSchema } from '../../engine/generator/generator-store.js';
import type { NodeClient } from './node-client.js';

export { keysFileEntry, type KeysFile, type KeysFileEntry, type PlainKeysJSON } from '../../config/keys-file-entry.js';

/**
 * Reads and checks a keys file. Problems are reported as paths and reasons, never values, so a
 * malformed file cannot leak key material into an error.
 */
export function readKeysFile(path: string): KeysFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `${path} does not exist.` : `${path} is not a readable JSON file.`);
  }
  const problems = validationErrors(keysFileSchema, json);
  if (problems.length > 0) throw new Error(`${path} is not a keys file (${problems.slice(0, 3).join('; ')}).`);
  return json as KeysFile;
}

/** True when an entry's `encrypted` member holds an encrypted object (Lisk: at least one member). */
export function hasEncryptedKeys(entry: KeysFileEntry): entry is KeysFileEntry & { encrypted: Record<string, unknown> } {
  return typeof entry.encrypted === 'object' && entry.encrypted !== null && Object.keys(entry.encrypted).length > 0;
}

/** The plaintext Lisk encrypts for an entry: the codec bytes of the four plain keys. */
export function plainKeysPlaintext(plain: PlainKeysJSON): Buffer {
  return codec.encode(plainGeneratorKeysSchema, {
    generatorKey: Buffer.from(plain.generatorKey, 'hex'),
    generatorPrivateKey: Buffer.from(plain.generatorPrivateKey, 'hex'),
    blsKey: Buffer.from(plain.blsKey, 'hex'),
    blsPrivateKey: Buffer.from(plain.blsPrivateKey, 'hex'),
  });
}

/** Encrypts an entry's plain keys with `password` (keys:create, keys:encrypt). */
export async function encryptPlainKeys(
  plain: PlainKeysJSON,
  password: string,
  options: EncryptMessageOptions,
): Promise<EncryptedMessageObject> {
  const plaintext = plainKeysPlaintext(plain);
  try {
    return await encryptMessageWithPassword(plaintext, password, options);
  } finally {
    plaintext.fill(0);
  }
}

/** The answer of `generator_getAllKeys`. */
interface AllKeysResponse {
  keys: { address: string; type: 'plain' | 'encrypted'; data: Record<string, unknown> }[];
}

/**
 * keys:export / generator:export: the keys the node stores (`generator_getAllKeys`) as key file
 * entries, `{address, encrypted}` or `{address, plain}`.
 */
export async function fetchExportedKeys(client: NodeClient): Promise<Record<string, unknown>[]> {
  const response = await client.invoke<AllKeysResponse>('generator_getAllKeys');
  return response.keys.map((key) =>
    key.type === 'encrypted' ? { address: key.address, encrypted: key.data } : { address: key.address, plain: key.data },
  );
}
