/**
 * The shape of a Basalt node config: Lisk Core v4's `config.json` (lisk-sdk 6.1
 * application_config_schema.ts, same keys and meaning) plus Basalt's own keys, marked below.
 * Values are plain JSON; the chain engine reads its part through `ChainConfig` (lisk-config.ts).
 */

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'none';
export type RpcModeName = 'ipc' | 'ws' | 'http';

export interface SystemConfig {
  /** Data directory; `~` is the home directory. The start command sets it to the one in use. */
  dataPath: string;
  logLevel: LogLevel;
  /** Heights of events to keep; -1 keeps all. */
  keepEventsForHeights: number;
  /** The node software version; the start command sets it to Basalt's. */
  version: string;
  backup: { height: number };
  enableMetrics?: boolean;
  keepInclusionProofsForHeights?: number;
  inclusionProofKeys?: string[];
}

export interface RpcConfig {
  modes: RpcModeName[];
  host: string;
  port: number;
  /** Sensitive methods let through: namespaces, `<namespace>_<name>` or `*`. */
  allowedMethods: string[];
  accessControlAllowOrigin: string;
  /** Basalt: largest HTTP body / WebSocket message, in bytes. */
  maxBodyBytes: number;
  /** Basalt: most requests in one JSON-RPC batch. */
  maxBatchSize: number;
  /** Basalt: most IDs in one getBlocksByIDs / getTransactionsByIDs call. */
  maxIDsPerRequest: number;
  /** Basalt: most heights one getBlocksByHeightBetween call may span. */
  maxHeightSpan: number;
  /** Basalt: `GET /ready` answers 503 once the tip is more slots than this behind the clock. */
  readyMaxSlotsBehind: number;
}

export interface PeerAddress {
  ip: string;
  port: number;
}

export interface NetworkConfig {
  version: string;
  port: number;
  host?: string;
  seedPeers: PeerAddress[];
  blacklistedIPs?: string[];
  fixedPeers?: PeerAddress[];
  whitelistedPeers?: PeerAddress[];
  maxOutboundConnections?: number;
  maxInboundConnections?: number;
  wsMaxPayload?: number;
  advertiseAddress?: boolean;
}

export interface TransactionPoolConfig {
  maxTransactions: number;
  maxTransactionsPerAccount: number;
  /** Milliseconds. */
  transactionExpiryTime: number;
  /** uint64 decimal strings. */
  minEntranceFeePriority: string;
  minReplacementFeeDifference: string;
}

/** `genesis.block`: exactly one of a file (relative paths: see resolve-node-config.ts) or hex bytes. */
export interface GenesisBlockSource {
  fromFile?: string;
  blob?: string;
}

export interface GenesisSectionConfig {
  block: GenesisBlockSource;
  blockTime: number;
  bftBatchSize: number;
  /** 4 bytes as 8 hex characters. */
  chainID: string;
  maxTransactionsSize: number;
  minimumCertifyHeight: number;
}

export interface GeneratorConfig {
  /** `fromFile`: a Lisk `keys.json` (docs/protocol/keys.md). */
  keys: { fromFile?: string };
}

/** lisk-sdk's `legacy` section: brackets of the v3 chain kept for the `legacy_*` endpoints. */
export interface LegacySyncConfig {
  sync: boolean;
  brackets: { startHeight: number; snapshotHeight: number; snapshotBlockID: string }[];
}

/** Basalt: the legacy (Lisk Core 1.x–3.x style) forging HTTP API. */
export interface LegacyApiConfig {
  enabled: boolean;
  host: string;
  port: number;
  /** Path of a legacy forging config (`forging.delegates`, whitelist). */
  configFile?: string;
  /**
   * Off by default. The name of a request header (e.g. `x-forwarded-for`) that a reverse proxy
   * on this machine sets to the real client address; honoured only on loopback connections,
   * last entry wins. Anyone who can reach the port through a proxy that passes the header
   * unchanged could claim a whitelisted address: see README "Legacy forging API".
   */
  trustedProxyHeader?: string;
  /**
   * Forging toggles (PUT /api/node/status/forging, PATCH /api/forging) a client address may make
   * per window; `max` 0 turns the limit off. Default: 30 per 60 000 ms.
   */
  rateLimit?: { max: number; windowMs: number };
}

/** Basalt: Prometheus metrics on `GET /metrics` at host:port (off by default). */
export interface MetricsConfig {
  enabled: boolean;
  host: string;
  port: number;
}

export interface NodeConfig {
  system: SystemConfig;
  rpc: RpcConfig;
  network: NetworkConfig;
  transactionPool: TransactionPoolConfig;
  genesis: GenesisSectionConfig;
  generator: GeneratorConfig;
  /** Per-module configs by module name, read by the modules at init. */
  modules: Record<string, Record<string, unknown>>;
  plugins: Record<string, unknown>;
  legacy: LegacySyncConfig;
  legacyApi: LegacyApiConfig;
  metrics: MetricsConfig;
}

/** Any subset of a config, as a config file, a preset or CLI flags give it. */
export type PartialNodeConfig = DeepPartial<NodeConfig>;

export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
