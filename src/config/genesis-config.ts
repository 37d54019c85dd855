/**
 * The chain-wide constants of the `genesis` section of a Lisk config (lisk-sdk GenesisConfig).
 * Modules receive them at init; nothing chain-specific is hard-coded elsewhere.
 */
export interface GenesisConfig {
  /** 4 bytes; the first byte names the network (00 mainnet, 01 testnet, 04 devnet). */
  readonly chainID: Buffer;
  /** Seconds per slot (lisk-sdk range 3..2592000). */
  readonly blockTime: number;
  /** Number of validators BFT keeps in its window; also the PoS round length in lisk-sdk apps. */
  readonly bftBatchSize: number;
  /** Upper bound on the summed encoded size of a block's transactions. */
  readonly maxTransactionsSize: number;
  /** Lowest height an aggregate commit may certify. */
  readonly minimumCertifyHeight: number;
}

/** What a module receives at initialisation (lisk-sdk ModuleInitArgs). */
export interface ModuleInitArgs {
  readonly genesisConfig: GenesisConfig;
  /** The module's section of the config's `modules` object, as parsed JSON (may be empty). */
  readonly moduleConfig: Record<string, unknown>;
}
