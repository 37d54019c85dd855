import type { GenesisConfig } from '../../config/genesis-config.js';

/** The `network` object of `system_getNodeInfo` (lisk-sdk engine/endpoint/system.ts); undefined members are left out. */
export interface NodeInfoNetwork {
  readonly version: string;
  readonly port: number;
  readonly host?: string;
  readonly seedPeers: readonly { readonly ip: string; readonly port: number }[];
  readonly blacklistedIPs?: readonly string[];
  readonly fixedPeers?: readonly { readonly ip: string; readonly port: number }[];
  readonly whitelistedPeers?: readonly { readonly ip: string; readonly port: number }[];
}

/**
 * What `system_getNodeInfo` reports besides the chain store's heights: the node's
 * config and two live values the node owns (sync state, pool size).
 */
export interface NodeInfoSource {
  /** `system.version` of the config (Lisk Core reports its package version). */
  readonly version: string;
  /** `network.version` of the config, e.g. "1.0". */
  readonly networkVersion: string;
  /** The config's genesis section as lisk-sdk shows it; see `genesisInfoJSON`. */
  readonly genesis: Readonly<Record<string, unknown>>;
  readonly network: NodeInfoNetwork;
  syncing(): boolean;
  /** Number of transactions in the pool. */
  unconfirmedTransactions(): number;
}

/**
 * The genesis section as lisk-sdk 6.1 reports it in `system_getNodeInfo`: its config merged over
 * the defaults, so the default keys come first (block, blockTime, bftBatchSize,
 * maxTransactionsSize, minimumCertifyHeight), then chainID. `block` is the section's own
 * `{fromFile}` or `{blob}`, with the path as written in the config file (not resolved).
 */
export function genesisInfoJSON(
  genesis: GenesisConfig,
  block: { readonly fromFile?: string; readonly blob?: string },
): Record<string, unknown> {
  return {
    block: block.fromFile !== undefined ? { fromFile: block.fromFile } : { blob: block.blob },
    blockTime: genesis.blockTime,
    bftBatchSize: genesis.bftBatchSize,
    maxTransactionsSize: genesis.maxTransactionsSize,
    minimumCertifyHeight: genesis.minimumCertifyHeight,
    chainID: genesis.chainID.toString('hex'),
  };
}
