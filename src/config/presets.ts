/**
 * Network presets: the folders under the package's `config/` (as Lisk Core ships
 * `config/<network>/`), each with a Lisk-format `config.json` and, for the development networks,
 * the genesis block and the dev validators' keys. testnet and mainnet carry Lisk Core v4's chain
 * IDs and constants (lisk-core config/<network>/config.json) but no genesis block: the operator
 * supplies it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config-error.js';

export const NETWORKS = ['devnet', 'devnet-101', 'devnet-sidechain', 'testnet', 'mainnet'] as const;
export type NetworkName = (typeof NETWORKS)[number];
export const DEFAULT_NETWORK: NetworkName = 'devnet';

/** The package's `config/` folder (the same relative place from src/config and dist/config). */
export const PRESETS_DIR = fileURLToPath(new URL('../../config/', import.meta.url));

/** Files a preset may ship next to its config.json, copied into `<dataPath>/config/` on first use. */
export const PRESET_GENESIS_FILE = 'genesis_block.blob';
/** Signed transactions a fresh node of the network submits to its own pool (devnet bootstrap). */
export const PRESET_BOOTSTRAP_FILE = 'bootstrap_transactions.json';

export interface NetworkPreset {
  readonly network: NetworkName;
  readonly dir: string;
  /** The preset's config.json, parsed. */
  readonly config: Record<string, unknown>;
  /** Absolute path of the shipped genesis block, when the preset has one. */
  readonly genesisFile: string | undefined;
  /** Absolute path of the preset's bootstrap transactions, when it has them. */
  readonly bootstrapFile: string | undefined;
}

export function isNetworkName(name: string): name is NetworkName {
  return (NETWORKS as readonly string[]).includes(name);
}

/** Reads a preset; throws ConfigError for an unknown network or an unreadable preset. */
export function loadNetworkPreset(network: string, presetsDir: string = PRESETS_DIR): NetworkPreset {
  if (!isNetworkName(network)) {
    throw new ConfigError(`Network ${network} is not supported, supported networks: ${NETWORKS.join(', ')}.`);
  }
  const dir = join(presetsDir, network);
  const configFile = join(dir, 'config.json');
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(configFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Cannot read the ${network} preset ${configFile}: ${(error as Error).message}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new ConfigError(`The ${network} preset ${configFile} is not a JSON object.`);
  }
  const genesisFile = join(dir, PRESET_GENESIS_FILE);
  const bootstrapFile = join(dir, PRESET_BOOTSTRAP_FILE);
  return {
    network,
    dir,
    config: config as Record<string, unknown>,
    genesisFile: existsSync(genesisFile) ? genesisFile : undefined,
    bootstrapFile: existsSync(bootstrapFile) ? bootstrapFile : undefined,
  };
}
