import { readFileSync } from 'node:fs';
import { decodeLisk32 } from '../crypto/index.js';
import { keypairFromPlainKeys, type GeneratorKeypair } from '../engine/generator/generator-keypair.js';
import type { GeneratorStore, PlainGeneratorKeys } from '../engine/generator/generator-store.js';

interface KeysFileEntry {
  address?: string;
  plain?: { generatorKey?: string; generatorPrivateKey?: string; blsKey?: string; blsPrivateKey?: string };
  encrypted?: Record<string, unknown>;
}

const hex = (value: string | undefined, name: string, address: string): Buffer => {
  if (typeof value !== 'string' || !/^([0-9a-f]{2})+$/i.test(value)) {
    throw new Error(`Keys file entry ${address}: ${name} is missing or not hex.`);
  }
  return Buffer.from(value, 'hex');
};

/**
 * Imports a Lisk `keys.json` (cli_migration.md §2.1) into the generator store at start-up, as
 * lisk-sdk does with `generator.keys.fromFile`. Entries with plain keys become enabled
 * generators; encrypted entries need `generator_updateStatus` with the password (the running
 * node never sees a password at start). Returns the enabled keypairs.
 */
export function importGeneratorKeysFile(path: string, store: GeneratorStore): GeneratorKeypair[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { keys?: KeysFileEntry[] };
  if (!Array.isArray(parsed.keys)) throw new Error(`Keys file ${path} has no "keys" array.`);
  const enabled: GeneratorKeypair[] = [];
  for (const entry of parsed.keys) {
    const label = entry.address ?? '(no address)';
    if (typeof entry.address !== 'string') throw new Error(`Keys file ${path}: an entry has no address.`);
    const address = decodeLisk32(entry.address);
    if (entry.plain && Object.keys(entry.plain).length > 0) {
      const plain: PlainGeneratorKeys = {
        generatorKey: hex(entry.plain.generatorKey, 'generatorKey', label),
        generatorPrivateKey: hex(entry.plain.generatorPrivateKey, 'generatorPrivateKey', label),
        blsKey: hex(entry.plain.blsKey, 'blsKey', label),
        blsPrivateKey: hex(entry.plain.blsPrivateKey, 'blsPrivateKey', label),
      };
      const keypair = keypairFromPlainKeys(address, plain);
      store.setKeys(address, { type: 'plain', data: plain });
      enabled.push(keypair);
    }
  }
  return enabled;
}
