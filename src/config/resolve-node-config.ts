/**
 * The config a node starts with (Lisk Core v4's `start`; docs/protocol/cli.md): layers
 * defaults ← network preset ← config file ← command-line flags, the genesis block, and the copy
 * of both kept in the data directory.
 *
 * Rules:
 * - On a data directory without a stored config, the base is the preset of `network` (default
 *   devnet), or Basalt's defaults alone when no network is given and the config file names its
 *   own chain (`genesis.chainID`). On one with a stored config, the stored config is the base,
 *   unless `network` is given (then the preset is, and it must agree with the stored config).
 * - The config file is merged over the base (objects merge, arrays and scalars replace).
 * - The result, with paths normalised, is what the data directory keeps in
 *   `<dataPath>/config/config.json` (+ `genesis_block.blob`, + the preset's keys file). If the
 *   data directory already keeps a different config or genesis block, the start is refused
 *   unless `overwriteConfig` is set; the message names the first differing key.
 * - Flags (ports, hosts, RPC modes, log level, seed peers) apply to this run only.
 *
 * Everything is read and checked before anything is written: `prepareNodeConfig` only reads,
 * `commitNodeConfig` writes. The start command takes the data directory's lock between the two
 * so that a second node never rewrites the config of a running one.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Block } from '../chain/block.js';
import { BasaltError } from '../errors.js';
import { version } from '../version.js';
import { ConfigError } from './config-error.js';
import { DATA_DIR_GENESIS_FILE, defaultNodeConfig } from './config-defaults.js';
import { flagsLayer, type ConfigFlags } from './config-flags.js';
import { expandHome, firstExisting, pathCandidates, type PathOrigin } from './config-paths.js';
import { absolutePluginPaths } from './plugin-paths.js';
import { decodeGenesis, readConfigFile, readGenesisBytes, readStored, resolveGeneratorKeys } from './config-sources.js';
import { dataDirConfigPaths, writeStoredNodeConfig, type DataDirExtraFile } from './data-dir-config.js';
import { parseChainConfig, type ChainConfig } from './lisk-config.js';
import { cloneConfigValue, mergeConfigLayers } from './merge-config.js';
import type { NodeConfig } from './node-config.js';
import { DEFAULT_NETWORK, loadNetworkPreset, PRESET_BOOTSTRAP_FILE, PRESETS_DIR, type NetworkName, type NetworkPreset } from './presets.js';
import { decideStoredConfigAction, type StoredConfigAction } from './stored-config-action.js';
import { nodeConfigProblems, unknownConfigKeys } from './validate-config.js';

export type { StoredConfigAction };

export interface ResolveNodeConfigOptions extends ConfigFlags {
  /** `--network`: a preset name (devnet, devnet-101, devnet-sidechain, testnet, mainnet). */
  readonly network?: string;
  /** `--config`: a Lisk-format config.json merged over the preset. */
  readonly configFile?: string;
  /** `--data-path`; default `~/.basalt/<network>`. */
  readonly dataPath?: string;
  /** `--genesis`: the genesis block file, instead of the one the config names. */
  readonly genesisFile?: string;
  /** `--overwrite-config`: replace a different config stored in the data directory. */
  readonly overwriteConfig?: boolean;
  /** Where the presets live (tests); default the package's `config/`. */
  readonly presetsDir?: string;
  /** What `~` means (tests); default the user's home directory. */
  readonly homeDir?: string;
  /**
   * The modules' own checks of the chain config (runtime/module-config-check.ts gives them; this
   * room never imports the modules). Run before the stored copy is compared, so a config that is
   * wrong in itself is reported as such; returns warnings, throws ConfigError. Without it the
   * module sections are only checked against the config schema.
   */
  readonly checkChainConfig?: (chainConfig: ChainConfig, genesisBlock: Block) => readonly string[];
}

export interface NodeConfigPlan {
  /** Absolute data path. */
  readonly dataPath: string;
  /** The preset the config was built on; undefined when the stored config was the base. */
  readonly network: NetworkName | undefined;
  /** The config of this run: the stored config with the flags applied. */
  readonly config: NodeConfig;
  /** The config the data directory keeps (no flags; paths relative to the data path or absolute). */
  readonly storedConfig: NodeConfig;
  /** The engine's view of `config`. */
  readonly chainConfig: ChainConfig;
  readonly genesisBlock: Block;
  readonly genesisBlockBytes: Buffer;
  /** Absolute path of the generator keys file (in the data directory once committed), if any. */
  readonly generatorKeysFile: string | undefined;
  /**
   * The network's bootstrap transactions (`<dataPath>/config/bootstrap_transactions.json`, from
   * the devnet preset), which a node whose chain is still at its genesis block submits to its
   * own pool; undefined when the network has none.
   */
  readonly bootstrapTransactionsFile: string | undefined;
  readonly action: StoredConfigAction;
  /** Harmless oddities worth a log line (unknown keys, a BFT batch size unlike the round length). */
  readonly warnings: readonly string[];
  /** Files the commit copies into `<dataPath>/config/`. */
  readonly extraFiles: readonly DataDirExtraFile[];
}

/**
 * Reads and checks everything a start needs (presets, config file, stored copy, genesis block,
 * keys file, and module configs through `checkChainConfig`) without writing anything. Throws ConfigError with a message that
 * names the key or file at fault.
 */
export function prepareNodeConfig(options: ResolveNodeConfigOptions = {}): NodeConfigPlan {
  const home = options.homeDir ?? homedir();
  const networkName = options.network ?? DEFAULT_NETWORK;
  const dataPath = resolve(expandHome(options.dataPath ?? `~/.basalt/${networkName}`, home));
  // An unknown --network fails first, whatever else is wrong.
  const preset = options.network === undefined ? undefined : loadNetworkPreset(options.network, options.presetsDir ?? PRESETS_DIR);
  const { stored, unreadable } = readStored(dataPath, options.overwriteConfig === true);
  const storedBase = stored ? mergeConfigLayers(defaultNodeConfig(), stored.config) : undefined;

  const fileLayer = options.configFile === undefined ? undefined : readConfigFile(options.configFile, home);

  // The base layer and where its relative paths point.
  let base: Record<string, unknown>;
  let baseOrigin: PathOrigin;
  let basePreset: NetworkPreset | undefined = preset;
  if (storedBase !== undefined && preset === undefined) {
    base = storedBase;
    baseOrigin = { kind: 'data-dir' };
  } else if (preset === undefined && fileLayer !== undefined && get(fileLayer, 'genesis', 'chainID') !== undefined) {
    // A config file that names its chain stands on its own, over the defaults only, as a Lisk
    // Core config does over lisk-sdk's: no devnet setting may leak into another chain.
    base = defaultNodeConfig() as Record<string, unknown>;
    baseOrigin = { kind: 'data-dir' };
  } else {
    basePreset ??= loadNetworkPreset(networkName, options.presetsDir ?? PRESETS_DIR);
    base = mergeConfigLayers(defaultNodeConfig(), basePreset.config);
    baseOrigin = { kind: 'preset', presetDir: basePreset.dir };
  }
  const fileOrigin: PathOrigin | undefined =
    options.configFile === undefined ? undefined : { kind: 'config-file', configFile: resolve(expandHome(options.configFile, home)) };
  const merged = mergeConfigLayers(base, fileLayer, { system: { dataPath, version } });
  const originOf = (has: (layer: Record<string, unknown>) => boolean): PathOrigin =>
    fileLayer !== undefined && fileOrigin !== undefined && has(fileLayer) ? fileOrigin : baseOrigin;

  throwIfInvalid(merged, options.configFile ?? (basePreset ? `${basePreset.network} preset` : 'stored config'));
  const fileConfig: NodeConfig = merged;

  // Genesis block.
  const genesisOrigin = originOf((layer) => get(layer, 'genesis', 'block') !== undefined);
  const genesisBlockBytes = readGenesisBytes(fileConfig, genesisOrigin, dataPath, home, options.genesisFile, basePreset);
  const genesisBlock = decodeGenesis(genesisBlockBytes, options.genesisFile ?? 'the genesis block');

  const extraFiles: DataDirExtraFile[] = [];
  const keysOrigin = originOf((layer) => get(layer, 'generator', 'keys', 'fromFile') !== undefined);
  const keys = resolveGeneratorKeys(fileConfig.generator.keys.fromFile, keysOrigin, dataPath, home);
  if (keys?.copy) extraFiles.push(keys.copy);

  // Legacy forging API config file: checked only when the API is on.
  let legacyApiConfigFile: string | undefined;
  const legacyPath = fileConfig.legacyApi.configFile;
  if (legacyPath !== undefined) {
    const candidates = pathCandidates(
      legacyPath,
      originOf((layer) => get(layer, 'legacyApi', 'configFile') !== undefined),
      dataPath,
      home,
    );
    legacyApiConfigFile = firstExisting(candidates);
    if (legacyApiConfigFile === undefined && fileConfig.legacyApi.enabled) {
      throw new ConfigError(`.legacyApi.configFile: "${legacyPath}" not found (looked at ${candidates.join(', ')}).`);
    }
  }

  // The preset's bootstrap transactions travel with its genesis block.
  let bootstrapTransactionsFile: string | undefined;
  const dataBootstrapFile = join(dataDirConfigPaths(dataPath).dir, PRESET_BOOTSTRAP_FILE);
  if (genesisOrigin.kind === 'preset' && basePreset?.bootstrapFile !== undefined && options.genesisFile === undefined) {
    extraFiles.push({ source: basePreset.bootstrapFile, name: PRESET_BOOTSTRAP_FILE, mode: 0o644 });
    bootstrapTransactionsFile = dataBootstrapFile;
  } else if (genesisOrigin.kind === 'data-dir' && existsSync(dataBootstrapFile)) {
    bootstrapTransactionsFile = dataBootstrapFile;
  }

  const storedConfig = cloneConfigValue(fileConfig);
  storedConfig.genesis.block = { fromFile: DATA_DIR_GENESIS_FILE };
  if (keys !== undefined) storedConfig.generator.keys.fromFile = keys.storedPath;
  if (legacyApiConfigFile !== undefined) storedConfig.legacyApi.configFile = legacyApiConfigFile;
  // Plugin files are found from the config file that named them; the stored copy keeps them absolute.
  storedConfig.plugins = absolutePluginPaths(storedConfig.plugins, (name, path) =>
    pathCandidates(
      path,
      originOf((layer) => get(layer, 'plugins', name, 'path') !== undefined),
      dataPath,
      home,
    ),
  );

  const config = mergeConfigLayers(storedConfig, flagsLayer(options), { system: { dataPath, version } });
  throwIfInvalid(config, 'command-line flags');
  const runConfig: NodeConfig = config;
  const chainConfig = { ...parseChainConfigOrThrow(runConfig, dataPath), genesisBlockFile: dataDirConfigPaths(dataPath).genesisFile };
  const warnings = [
    ...unknownConfigKeys(runConfig).map((path) => `Unknown config key ${path} is ignored.`),
    ...(options.checkChainConfig?.(chainConfig, genesisBlock) ?? []),
  ];

  // Last: a config that is wrong in itself is reported as such, not as "different".
  const action = unreadable
    ? 'overwrite'
    : decideStoredConfigAction(
        dataPath,
        stored && storedBase ? { config: storedBase, genesisBytes: stored.genesisBytes } : undefined,
        { config: storedConfig, genesisBytes: genesisBlockBytes },
        options.overwriteConfig === true,
      );
  return {
    dataPath,
    network: basePreset?.network,
    config: runConfig,
    storedConfig,
    chainConfig,
    genesisBlock,
    genesisBlockBytes,
    generatorKeysFile: keys?.file,
    bootstrapTransactionsFile,
    action,
    warnings,
    extraFiles,
  };
}

/** Writes the data directory's copy when the plan says so (nothing for `keep`). */
export function commitNodeConfig(plan: NodeConfigPlan): void {
  if (plan.action === 'keep') return;
  writeStoredNodeConfig(plan.dataPath, plan.storedConfig, plan.genesisBlockBytes, plan.extraFiles);
}

/**
 * prepareNodeConfig then commitNodeConfig: the config and genesis block a node starts with, its
 * data directory holding their copy. Use the two steps separately to take a lock in between.
 */
export function resolveNodeConfig(options: ResolveNodeConfigOptions = {}): NodeConfigPlan {
  const plan = prepareNodeConfig(options);
  commitNodeConfig(plan);
  return plan;
}

function get(object: Record<string, unknown>, ...keys: string[]): unknown {
  let value: unknown = object;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function throwIfInvalid(config: unknown, source: string): asserts config is NodeConfig {
  const problems = nodeConfigProblems(config);
  if (problems.length > 0) throw new ConfigError(`Invalid config (${source}):\n  ${problems.join('\n  ')}`);
}

function parseChainConfigOrThrow(config: NodeConfig, dataPath: string): ChainConfig {
  try {
    return parseChainConfig(config, dataPath);
  } catch (error) {
    if (error instanceof BasaltError) throw new ConfigError(error.message);
    throw error;
  }
}
