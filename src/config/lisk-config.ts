import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { validate } from '../codec/index.js';
import { ValidationError } from '../errors.js';
import { ConfigError } from './config-error.js';
import type { GenesisConfig } from './genesis-config.js';

export { ConfigError };

/** lisk-sdk limits (framework/src/constants.ts, application_config_schema.ts). */
const MAX_CCM_SIZE = 10240;
const MAX_NUM_VALIDATORS = 199;

/** lisk-sdk's defaults for the genesis section. */
const GENESIS_DEFAULTS = { blockTime: 10, bftBatchSize: 103, maxTransactionsSize: 15 * 1024, minimumCertifyHeight: 1 };

const genesisSectionSchema = {
  type: 'object',
  required: ['block', 'blockTime', 'bftBatchSize', 'chainID', 'maxTransactionsSize'],
  properties: {
    block: {
      type: 'object',
      properties: { fromFile: { type: 'string' }, blob: { type: 'string', format: 'hex' } },
    },
    blockTime: { type: 'number', minimum: 3, maximum: 30 * 24 * 60 * 60 },
    bftBatchSize: { type: 'number', minimum: 1, maximum: MAX_NUM_VALIDATORS + 2 },
    chainID: { type: 'string', format: 'hex', minLength: 8, maxLength: 8 },
    maxTransactionsSize: { type: 'integer', minimum: MAX_CCM_SIZE + 1024, maximum: 30 * 1024 },
    minimumCertifyHeight: { type: 'integer', minimum: 1 },
  },
};

/** The parts of a Lisk-format `config.json` that the chain engine needs. */
export interface ChainConfig {
  readonly genesis: GenesisConfig;
  /** Absolute path of the genesis block file, or undefined when the config embeds `blob`. */
  readonly genesisBlockFile: string | undefined;
  readonly genesisBlockBlob: Buffer | undefined;
  /** The `modules` section: raw per-module configs, by module name. */
  readonly modules: Readonly<Record<string, Record<string, unknown>>>;
  /** `system.keepEventsForHeights`; absent: every event is kept. */
  readonly keepEventsForHeights?: number;
  /** `system.backup.height`: the height whose store is copied to `<dataPath>/backup`; absent or 0, none. */
  readonly backupHeight?: number;
}

/**
 * Reads the chain-relevant sections of a Lisk config (the format of lisk-sdk 6.x and Lisk Core
 * v4, as `fixtures/chains/dev/config.json`). `genesis.block.fromFile` is resolved against the
 * config file's folder, as lisk-sdk does for a node started with that config.
 */
export function loadChainConfig(configPath: string): ChainConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Cannot read config ${configPath}: ${(error as Error).message}`);
  }
  return parseChainConfig(raw, dirname(resolve(configPath)));
}

export function parseChainConfig(raw: unknown, baseDir: string): ChainConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('The config must be a JSON object.');
  }
  const config = raw as Record<string, unknown>;
  if (config.genesis === undefined) throw new ConfigError('.genesis: the config has no genesis section');
  // lisk-sdk merges a node's config over its defaults (application_config_schema.ts); Lisk Core's
  // own configs rely on that and omit bftBatchSize, for instance.
  const genesis: Record<string, unknown> = { ...GENESIS_DEFAULTS, ...(config.genesis as Record<string, unknown>) };
  try {
    validate(genesisSectionSchema, genesis);
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ConfigError(error.errors.map((problem) => `.genesis${problem}`).join('; '));
    }
    throw error;
  }
  const block = (genesis.block ?? {}) as { fromFile?: string; blob?: string };
  const modules = (config.modules ?? {}) as Record<string, Record<string, unknown>>;
  if (typeof modules !== 'object' || Array.isArray(modules)) throw new ConfigError('.modules: must be an object');
  return {
    genesis: {
      chainID: Buffer.from(genesis.chainID as string, 'hex'),
      blockTime: genesis.blockTime as number,
      bftBatchSize: genesis.bftBatchSize as number,
      maxTransactionsSize: genesis.maxTransactionsSize as number,
      minimumCertifyHeight: (genesis.minimumCertifyHeight as number | undefined) ?? 1,
    },
    genesisBlockFile:
      block.fromFile === undefined ? undefined : isAbsolute(block.fromFile) ? block.fromFile : resolve(baseDir, block.fromFile),
    genesisBlockBlob: block.blob === undefined ? undefined : Buffer.from(block.blob, 'hex'),
    modules,
    keepEventsForHeights: systemInteger(config.system, 'keepEventsForHeights', -1),
    backupHeight: systemInteger((config.system as { backup?: unknown } | undefined)?.backup, 'height', 0, '.system.backup'),
  };
}

/** An integer of a `system` section (at least `minimum`), or undefined when the section or key is absent. */
function systemInteger(section: unknown, key: string, minimum: number, where = '.system'): number | undefined {
  if (typeof section !== 'object' || section === null) return undefined;
  const value = (section as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < minimum) {
    throw new ConfigError(`${where}.${key}: must be an integer of at least ${minimum}`);
  }
  return value as number;
}
