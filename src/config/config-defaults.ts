/**
 * Defaults under every config: lisk-sdk 6.1's application config defaults
 * (application_config_schema.ts `default`) with Basalt's data path and version, plus the
 * defaults of Basalt's own keys. `genesis.chainID` has no default: a network preset or the
 * config file must name the chain.
 */
import { version } from '../version.js';
import type { PartialNodeConfig } from './node-config.js';

/** The RPC port of lisk-sdk (DEFAULT_PORT_RPC). */
export const DEFAULT_RPC_PORT = 7887;
/** The P2P port of lisk-sdk (DEFAULT_PORT_P2P). */
export const DEFAULT_P2P_PORT = 7667;
/** The legacy forging API's port (Lisk Core 1.x–2.x HTTP API default). */
export const DEFAULT_LEGACY_API_PORT = 4000;
/** The Prometheus metrics port (the one OpenTelemetry's Prometheus exporter uses by default). */
export const DEFAULT_METRICS_PORT = 9464;
/** Where a preset's genesis block and keys live, relative to the data path (Lisk Core's layout). */
export const DATA_DIR_GENESIS_FILE = './config/genesis_block.blob';

/** A fresh copy of the defaults (callers may mutate it). */
export function defaultNodeConfig(): PartialNodeConfig {
  return {
    system: {
      dataPath: '~/.basalt',
      version,
      keepEventsForHeights: 300,
      logLevel: 'info',
      enableMetrics: false,
      backup: { height: 0 },
    },
    rpc: {
      modes: ['ipc'],
      port: DEFAULT_RPC_PORT,
      host: '127.0.0.1',
      allowedMethods: [],
      accessControlAllowOrigin: '*',
      maxBodyBytes: 1024 * 1024,
      maxBatchSize: 100,
      maxIDsPerRequest: 100,
      maxHeightSpan: 1000,
      readyMaxSlotsBehind: 6,
    },
    legacy: { sync: false, brackets: [] },
    network: { version: '1.0', seedPeers: [], port: DEFAULT_P2P_PORT },
    transactionPool: {
      maxTransactions: 4096,
      maxTransactionsPerAccount: 64,
      transactionExpiryTime: 3 * 60 * 60 * 1000,
      minEntranceFeePriority: '0',
      minReplacementFeeDifference: '10',
    },
    genesis: {
      block: { fromFile: DATA_DIR_GENESIS_FILE },
      blockTime: 10,
      bftBatchSize: 103,
      maxTransactionsSize: 15 * 1024,
      minimumCertifyHeight: 1,
    },
    generator: { keys: {} },
    modules: {},
    plugins: {},
    legacyApi: { enabled: false, host: '127.0.0.1', port: DEFAULT_LEGACY_API_PORT },
    metrics: { enabled: false, host: '127.0.0.1', port: DEFAULT_METRICS_PORT },
  };
}
