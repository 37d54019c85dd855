/**
 * A first look at `generator.keys.fromFile`: a Lisk `keys.json` (docs/protocol/keys.md,
 * `{ "keys": [{ address, keyPath, publicKey, privateKey, plain, encrypted }] }`). Only the
 * shape is checked here, so that a wrong path or a wrong file fails at start-up with a clear
 * message; reading and decrypting the keys is the generator's job. Key material never appears
 * in a message.
 */
import { readFileSync } from 'node:fs';
import { validationErrors } from '../codec/index.js';
import { ConfigError } from './config-error.js';
import { keysFileSchema } from './keys-file-entry.js';

/** Checks that `path` is a readable keys.json; returns the number of key entries. */
export function checkGeneratorKeysFile(path: string): number {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'not a readable JSON file';
    throw new ConfigError(`.generator.keys.fromFile: ${path}: ${reason}`);
  }
  const problems = validationErrors(keysFileSchema, json);
  if (problems.length > 0) {
    // Paths and reasons only: the validator never echoes values, so no key material leaks.
    throw new ConfigError(`.generator.keys.fromFile: ${path} is not a Lisk keys.json file (${problems.slice(0, 5).join('; ')})`);
  }
  return (json as { keys: unknown[] }).keys.length;
}
