/** The config room: node config schema, defaults, network presets, loading and overwrite rules. */
export type { GenesisConfig, ModuleInitArgs } from './genesis-config.js';
export { loadChainConfig, parseChainConfig, type ChainConfig } from './lisk-config.js';
export { ConfigError } from './config-error.js';
export type * from './node-config.js';
export { nodeConfigSchema } from './config-schema.js';
export { defaultNodeConfig, DEFAULT_RPC_PORT, DEFAULT_P2P_PORT, DEFAULT_LEGACY_API_PORT } from './config-defaults.js';
export { mergeConfigLayers, cloneConfigValue } from './merge-config.js';
export { validateNodeConfig, nodeConfigProblems, unknownConfigKeys } from './validate-config.js';
export {
  NETWORKS,
  DEFAULT_NETWORK,
  PRESETS_DIR,
  loadNetworkPreset,
  isNetworkName,
  type NetworkName,
  type NetworkPreset,
} from './presets.js';
export { parseSeedPeers, type ConfigFlags } from './config-flags.js';
export { checkGeneratorKeysFile } from './generator-keys-file.js';
export { dataDirConfigPaths, readStoredNodeConfig } from './data-dir-config.js';
export {
  prepareNodeConfig,
  commitNodeConfig,
  resolveNodeConfig,
  type ResolveNodeConfigOptions,
  type NodeConfigPlan,
  type StoredConfigAction,
} from './resolve-node-config.js';
