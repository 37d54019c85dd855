/**
 * `--auto-migrate-config`: a Lisk Core 3 config turned into a v4 config.json, by the rules of
 * lisk-migrator 2.0.1 (`src/utils/config.ts` `migrateUserConfig`). The base is the v4 config the
 * migrator bundles for the network; a handful of v3 settings are carried over, each only when
 * its v3 value is truthy (so `0`, `""` and `false` keep the base value); everything else of v3
 * (forging, plugins, peer lists, genesisConfig, ...) is left behind on purpose: v4 needs new keys
 * and has other plugins. The result passes Basalt's own config validation.
 */
import { readFileSync } from 'node:fs';
import { expandHome } from '../../config/config-paths.js';
import { cloneConfigValue, mergeConfigLayers } from '../../config/merge-config.js';
import { defaultNodeConfig } from '../../config/config-defaults.js';
import { loadNetworkPreset } from '../../config/presets.js';
import { nodeConfigProblems } from '../../config/validate-config.js';
import { MigrationError } from '../migration-error.js';

export type MigrationNetworkName = 'mainnet' | 'testnet';

type JsonObject = Record<string, unknown>;

/** Rounds of the v4 bootstrap period (lisk-core 4 `pos.initRounds` at migration). */
const POS_INIT_ROUNDS = 587;
const ACTIVE_VALIDATORS = 101;
const ROUND_LENGTH = 103;
const MAX_BFT_WEIGHT_CAP = 1000;
const DEFAULT_VERSION = '0.1.0';

/** The RPC namespaces the migrator's bundled config opens to clients. */
const BUNDLED_ALLOWED_METHODS = ['generator', 'system', 'random', 'keys', 'legacy'];

/**
 * The v4 config lisk-migrator 2.0.1 ships for `network` (`config/<network>/config.json`). It is
 * Lisk Core 4's own network config with the migrator's `system` and `rpc` sections, so it is built
 * from Basalt's preset (which carries lisk-core's values) instead of a second copy of the seed
 * peers and module settings.
 */
export function bundledV4Config(network: MigrationNetworkName): JsonObject {
  const preset = cloneConfigValue(loadNetworkPreset(network).config);
  const rpc = (preset.rpc ?? {}) as JsonObject;
  return {
    system: { dataPath: '~/.lisk', logLevel: 'info', keepEventsForHeights: 300 },
    rpc: { modes: ['ipc', 'ws'], port: rpc.port ?? 7887, host: rpc.host ?? '127.0.0.1', allowedMethods: [...BUNDLED_ALLOWED_METHODS] },
    genesis: preset.genesis,
    network: preset.network,
    transactionPool: preset.transactionPool,
    modules: preset.modules,
    plugins: preset.plugins ?? {},
  };
}

const LOG_LEVEL_PRIORITY: Readonly<Record<string, number>> = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };
const LOG_LEVEL_BY_PRIORITY = Object.keys(LOG_LEVEL_PRIORITY);

/**
 * v4 has one log level; v3 had a file and a console level. The more verbose wins, and anything
 * that is not a level name (`none`, a typo, absent) counts as `info`.
 */
export function migratedLogLevel(logger: { fileLogLevel?: unknown; consoleLogLevel?: unknown }): string {
  const priority = (level: unknown): number => LOG_LEVEL_PRIORITY[String(level || '').toLowerCase()] ?? (LOG_LEVEL_PRIORITY.info as number);
  return LOG_LEVEL_BY_PRIORITY[Math.max(priority(logger.fileLogLevel), priority(logger.consoleLogLevel))] as string;
}

/**
 * The first height whose block must carry a certificate: the snapshot block + 1 (the genesis
 * block), then the bootstrap rounds plus one round per initial validator that steps down.
 */
export function minimumCertifyHeight(snapshotHeight: number): number {
  return snapshotHeight + 1 + (POS_INIT_ROUNDS + ACTIVE_VALIDATORS - 1) * ROUND_LENGTH;
}

function section(config: JsonObject, name: string): JsonObject {
  const value = config[name];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
  const created: JsonObject = {};
  config[name] = created;
  return created;
}

const TRANSACTION_POOL_KEYS = [
  'maxTransactions',
  'maxTransactionsPerAccount',
  'transactionExpiryTime',
  'minEntranceFeePriority',
  'minReplacementFeeDifference',
] as const;

/** v3 `network` key → v4 `network` key. */
const NETWORK_KEYS = [
  ['port', 'port'],
  ['hostIp', 'host'],
  ['maxOutboundConnections', 'maxOutboundConnections'],
  ['maxInboundConnections', 'maxInboundConnections'],
  ['wsMaxPayload', 'wsMaxPayload'],
  ['advertiseAddress', 'advertiseAddress'],
] as const;

/** A settings change, in the words the migrator logs it with. */
export type ConfigChange = string;

/**
 * Applies the migration rules to a copy of `base`. Returns the v4 config and one line per
 * setting changed (`Setting config property 'network.port' to: 5000.`), for the command's output.
 */
export function migrateV3Config(
  v3Config: JsonObject,
  base: JsonObject,
  snapshotHeight: number,
): { config: JsonObject; changes: ConfigChange[] } {
  const config = cloneConfigValue(base);
  const changes: ConfigChange[] = [];
  const set = (target: JsonObject, key: string, path: string, value: unknown): void => {
    target[key] = value;
    changes.push(`Setting config property '${path}' to: ${String(value)}.`);
  };
  const system = section(config, 'system');
  if (!system.version) set(system, 'version', 'system.version', DEFAULT_VERSION);
  if (v3Config.rootPath) set(system, 'dataPath', 'system.dataPath', v3Config.rootPath);
  if (v3Config.logger) set(system, 'logLevel', 'system.logLevel', migratedLogLevel(v3Config.logger as JsonObject));

  const v3Pool = v3Config.transactionPool as JsonObject | undefined;
  if (v3Pool) {
    const pool = section(config, 'transactionPool');
    for (const key of TRANSACTION_POOL_KEYS) {
      if (v3Pool[key]) set(pool, key, `transactionPool.${key}`, v3Pool[key]);
    }
  }
  const mode = (v3Config.rpc as JsonObject | undefined)?.mode;
  if (mode) {
    section(config, 'rpc').modes = [mode];
    changes.push(`Setting config property 'rpc.modes' to: ${String(mode)}.`);
  }
  const v3Network = v3Config.network as JsonObject | undefined;
  if (v3Network) {
    const network = section(config, 'network');
    for (const [from, to] of NETWORK_KEYS) {
      if (v3Network[from]) set(network, to, `network.${to}`, v3Network[from]);
    }
  }
  section(config, 'genesis').minimumCertifyHeight = minimumCertifyHeight(snapshotHeight);
  changes.push("Calculating and updating config property 'genesis.minimumCertifyHeight'.");
  const pos = (config.modules as JsonObject | undefined)?.pos as JsonObject | undefined;
  if (pos && !pos.maxBFTWeightCap) set(pos, 'maxBFTWeightCap', 'modules.pos.maxBFTWeightCap', MAX_BFT_WEIGHT_CAP);
  return { config, changes };
}

/**
 * Checks a migrated config the way a node would load it (over Basalt's defaults, against the
 * node config schema). Throws MigrationError with the migrator's message and every problem.
 */
export function validateMigratedConfig(config: JsonObject): void {
  const problems = nodeConfigProblems(mergeConfigLayers(defaultNodeConfig(), config));
  if (problems.length > 0) {
    throw new MigrationError('MIGRATION_CONFIG_INVALID', `Migrated user configuration is invalid.\n  ${problems.join('\n  ')}`);
  }
}

function readJsonObject(path: string, what: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new MigrationError('MIGRATION_CONFIG_UNREADABLE', `Cannot read the ${what} ${path}: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MigrationError('MIGRATION_CONFIG_UNREADABLE', `The ${what} ${path} is not a JSON object.`);
  }
  return value as JsonObject;
}

/**
 * The v3 config as the node used it: `<v3 data path>/config/<network>/config.json` with the
 * `--config` file deep-merged over it (objects merge, arrays and scalars replace).
 */
export function readV3Config(dataDirConfigFile: string, customConfigFile?: string): JsonObject {
  const dataDirConfig = readJsonObject(dataDirConfigFile, 'Lisk Core v3 config');
  const custom = customConfigFile === undefined ? {} : readJsonObject(expandHome(customConfigFile), 'custom config');
  return mergeConfigLayers(dataDirConfig, custom);
}

/** The text the migrator writes for config files: tab-indented, no final newline. */
export function renderConfig(config: JsonObject): string {
  return JSON.stringify(config, null, '\t');
}
