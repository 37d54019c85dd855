/**
 * The copy of the config and genesis block a node keeps in its data directory (Lisk Core v4's
 * layout): `<dataPath>/config/config.json` and `<dataPath>/config/genesis_block.blob`, plus the
 * preset's keys file when the node uses one.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';

export interface DataDirConfigPaths {
  readonly dir: string;
  readonly configFile: string;
  readonly genesisFile: string;
}

export function dataDirConfigPaths(dataPath: string): DataDirConfigPaths {
  const dir = join(dataPath, 'config');
  return { dir, configFile: join(dir, 'config.json'), genesisFile: join(dir, 'genesis_block.blob') };
}

export interface StoredNodeConfig {
  readonly config: Record<string, unknown>;
  /** Undefined when the data directory has a config but no genesis block. */
  readonly genesisBytes: Buffer | undefined;
}

/** The stored copy, or undefined for a data directory that has none yet. */
export function readStoredNodeConfig(dataPath: string): StoredNodeConfig | undefined {
  const paths = dataDirConfigPaths(dataPath);
  if (!existsSync(paths.configFile)) return undefined;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(paths.configFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `The config stored in the data directory (${paths.configFile}) cannot be read: ${(error as Error).message}. ` +
        'Fix it, or start with --overwrite-config to replace it.',
    );
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new ConfigError(`The config stored in the data directory (${paths.configFile}) is not a JSON object.`);
  }
  const genesisBytes = existsSync(paths.genesisFile) ? readFileSync(paths.genesisFile) : undefined;
  return { config: config as Record<string, unknown>, genesisBytes };
}

/** A file to place in `<dataPath>/config/` next to the config (e.g. a preset's keys file). */
export interface DataDirExtraFile {
  readonly source: string;
  readonly name: string;
  readonly mode: number;
}

/**
 * Writes the copy. Each file is written to a temporary name and renamed, so a crash leaves
 * either the old or the new file, never half of one.
 */
export function writeStoredNodeConfig(
  dataPath: string,
  config: object,
  genesisBytes: Buffer,
  extraFiles: readonly DataDirExtraFile[] = [],
): void {
  const paths = dataDirConfigPaths(dataPath);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  for (const file of extraFiles) {
    writeAtomically(join(paths.dir, file.name), readFileSync(file.source), file.mode);
  }
  writeAtomically(paths.genesisFile, genesisBytes, 0o644);
  writeAtomically(paths.configFile, `${JSON.stringify(config, undefined, 2)}\n`, 0o644);
}

function writeAtomically(path: string, data: string | Buffer, mode: number): void {
  // A leftover from a crash would keep its old mode: start from a new file.
  rmSync(`${path}.tmp`, { force: true });
  writeFileSync(`${path}.tmp`, data, { mode });
  renameSync(`${path}.tmp`, path);
}
