/**
 * The files a node config draws on: the config file, the copy stored in the data directory, the
 * genesis block and the generator keys file, each read and checked with errors that name the
 * key or file at fault.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { Block } from '../chain/block.js';
import { ConfigError } from './config-error.js';
import { expandHome, firstExisting, pathCandidates, type PathOrigin } from './config-paths.js';
import { dataDirConfigPaths, readStoredNodeConfig, type DataDirExtraFile, type StoredNodeConfig } from './data-dir-config.js';
import { checkGeneratorKeysFile } from './generator-keys-file.js';
import type { NodeConfig } from './node-config.js';
import type { NetworkPreset } from './presets.js';

export interface ResolvedKeysFile {
  /** Where the generator reads it (in the data directory once a preset's copy is committed). */
  readonly file: string;
  /** How the stored config names it: `./config/<name>` inside the data directory, else absolute. */
  readonly storedPath: string;
  /** Set when the file is a preset's, which the data directory gets a copy of. */
  readonly copy?: DataDirExtraFile;
}

/** Finds and checks `generator.keys.fromFile` (a Lisk keys.json). */
export function resolveGeneratorKeys(
  path: string | undefined,
  origin: PathOrigin,
  dataPath: string,
  home: string,
): ResolvedKeysFile | undefined {
  if (path === undefined) return undefined;
  const candidates = pathCandidates(path, origin, dataPath, home);
  const found = firstExisting(candidates);
  if (found === undefined) {
    throw new ConfigError(`.generator.keys.fromFile: "${path}" not found (looked at ${candidates.join(', ')}).`);
  }
  checkGeneratorKeysFile(found);
  const dataConfigDir = dataDirConfigPaths(dataPath).dir;
  const name = basename(found);
  if (origin.kind === 'preset' && found.startsWith(origin.presetDir + sep)) {
    // Keys hold private keys: the copy is readable by the owner only.
    return { file: join(dataConfigDir, name), storedPath: `./config/${name}`, copy: { source: found, name, mode: 0o600 } };
  }
  if (dirname(found) === dataConfigDir) return { file: found, storedPath: `./config/${name}` };
  return { file: found, storedPath: found };
}

/** The stored copy; an unreadable one is only tolerated when it is going to be overwritten. */
export function readStored(dataPath: string, overwrite: boolean): { stored: StoredNodeConfig | undefined; unreadable: boolean } {
  try {
    return { stored: readStoredNodeConfig(dataPath), unreadable: false };
  } catch (error) {
    if (overwrite && error instanceof ConfigError) return { stored: undefined, unreadable: true };
    throw error;
  }
}

/** A `--config` file: a JSON object, or ConfigError naming the file. */
export function readConfigFile(path: string, home: string): Record<string, unknown> {
  const file = resolve(expandHome(path, home));
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new ConfigError(`Cannot read config file ${file}: ${reason}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConfigError(`Config file ${file} must hold a JSON object.`);
  }
  return json as Record<string, unknown>;
}

/**
 * The genesis block bytes: `--genesis`, else `genesis.block.blob`, else the first existing
 * candidate of `genesis.block.fromFile`. A testnet/mainnet preset, which ships no genesis block,
 * gets a message saying how to provide one.
 */
export function readGenesisBytes(
  config: NodeConfig,
  origin: PathOrigin,
  dataPath: string,
  home: string,
  genesisFlag: string | undefined,
  preset: NetworkPreset | undefined,
): Buffer {
  if (genesisFlag !== undefined) {
    const file = resolve(expandHome(genesisFlag, home));
    try {
      return readFileSync(file);
    } catch {
      throw new ConfigError(`--genesis: cannot read the genesis block file ${file}.`);
    }
  }
  const { blob, fromFile } = config.genesis.block;
  if (blob !== undefined) return Buffer.from(blob, 'hex');
  const candidates = pathCandidates(fromFile as string, origin, dataPath, home);
  const found = firstExisting(candidates);
  if (found !== undefined) return readFileSync(found);
  if (origin.kind === 'preset' && preset !== undefined && preset.genesisFile === undefined) {
    throw new ConfigError(
      `The ${preset.network} preset ships no genesis block. Give Lisk Core's ${preset.network} genesis_block.blob with ` +
        `--genesis FILE (or place it at ${dataDirConfigPaths(dataPath).genesisFile}).`,
    );
  }
  throw new ConfigError(`.genesis.block.fromFile: genesis block file "${fromFile}" not found (looked at ${candidates.join(', ')}).`);
}

/** Decodes and statically validates a genesis block (LIP 0060); ConfigError otherwise. */
export function decodeGenesis(bytes: Buffer, what: string): Block {
  try {
    const block = Block.fromBytes(bytes);
    block.validateGenesis();
    return block;
  } catch (error) {
    throw new ConfigError(`${what} is not a valid genesis block: ${(error as Error).message}`);
  }
}
