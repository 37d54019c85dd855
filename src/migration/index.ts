/** The migration room: Lisk Core 3 databases read-only, and the Lisk Core 4 genesis block built from them. */
export * from './migrate-snapshot.js';
export * from './migration-error.js';
export { MIGRATION_NETWORKS, type MigrationNetworkFacts } from './migration-networks.js';
export { readPreviouslyForged, type PreviouslyForged } from './v3/forger-db.js';
export { readV3Blocks, readV3History, type V3StoredBlock } from './v3/v3-blocks.js';
export { DEFAULT_PAGE_SIZE } from './v3/v3-chain.js';
