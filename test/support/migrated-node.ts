/**
 * What a node started on a migrated genesis block needs, built from a Lisk Core 3 data directory
 * the way an operator builds it: the forging delegates' passphrases decrypted from the v3
 * config's `forging.delegates[].encryptedPassphrase` with `forging.defaultPassword`, their keys
 * derived as `keys:create --add-legacy` derives the legacy entry (the v3 key pair is the v4
 * generator key, which is what the migrated genesis block registers), and a mainnet config that
 * keeps the node on loopback with no seed peers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keysFileEntry, type KeysFileEntry } from '../../src/config/keys-file-entry.js';
import { decryptPassphraseV3, deriveLegacyValidatorKeys } from '../../src/crypto/index.js';

/** The --chainid integer of mainnet: the BLS key path of the legacy entry uses it. */
export const MAINNET_CHAIN_INDEX = 0;

export interface V3ForgingDelegate {
  /** The v3 address (hex of the 20-byte legacy address), as the v3 config writes it. */
  readonly v3Address: string;
  readonly encryptedPassphrase: string;
  readonly passphrase: string;
}

interface V3ForgingConfig {
  forging: { defaultPassword: string; delegates: { address: string; encryptedPassphrase: string }[] };
}

/** The v3 config of a data directory extracted by extractV3DataDir (devnet layout). */
export function v3ConfigPath(root: string): string {
  return join(root, 'data', 'config', 'devnet', 'config.json');
}

/** Every delegate the v3 node forged for, with its passphrase decrypted by the config's default password. */
export function v3ForgingDelegates(configPath: string): { readonly password: string; readonly delegates: V3ForgingDelegate[] } {
  const { forging } = JSON.parse(readFileSync(configPath, 'utf8')) as V3ForgingConfig;
  const delegates = forging.delegates.map((delegate) => ({
    v3Address: delegate.address,
    encryptedPassphrase: delegate.encryptedPassphrase,
    passphrase: decryptPassphraseV3(delegate.encryptedPassphrase, forging.defaultPassword),
  }));
  return { password: forging.defaultPassword, delegates };
}

/** The unencrypted legacy key file entry of one delegate (keys:create --add-legacy --no-encrypt). */
export function legacyKeysEntry(passphrase: string): KeysFileEntry {
  return keysFileEntry(deriveLegacyValidatorKeys(passphrase, MAINNET_CHAIN_INDEX));
}

/**
 * A config for `basalt start --network mainnet --genesis <blob>`: the node generates with the
 * keys of `keysFile`, serves HTTP next to IPC (the CLI tools talk to it over IPC, the test over
 * HTTP) with the operator's methods allowed, joins no one (no seed peers; the mainnet seeds must never be dialled from a test) and
 * binds its P2P socket to `p2pHost` only.
 */
export function writeMigratedNodeConfig(path: string, keysFile: string, p2pHost: string): void {
  const config = {
    generator: { keys: { fromFile: keysFile } },
    // lisk-migrator's migrated config opens these namespaces, which its commandsToExecute.txt
    // (keys:import, random_setHashOnion, generator_setStatus, generator:enable) need.
    rpc: { modes: ['ipc', 'http'], host: '127.0.0.1', allowedMethods: ['generator', 'system', 'random', 'keys', 'legacy'] },
    network: { seedPeers: [], host: p2pHost },
  };
  writeFileSync(path, JSON.stringify(config, null, 2));
}
