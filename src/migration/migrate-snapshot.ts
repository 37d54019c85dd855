/**
 * `migrateSnapshot`: a Lisk Core 3 blockchain.db at a snapshot height in, the Lisk Core 4 genesis
 * block out, as lisk-migrator 2.0.1 computes the genesis assets and Lisk Core 4.0.3's
 * `genesis-block:create` turns them into a block. The database is only read.
 *
 * Flow: open read-only → tip check → one streamed pass over accounts, block headers and
 * transactions → the five assets → the snapshot block's header → genesis execution with the
 * network's bundled v4 config (height h + 1, timestamp of block h + 3600, previous block h).
 */
import { parseChainConfig } from '../config/lisk-config.js';
import { createGenesisBlock, GenesisBuildError } from '../genesis/create-genesis-block.js';
import { buildGenesisAssets, type MigrationCounts } from './assets/genesis-assets.js';
import { MigrationError } from './migration-error.js';
import { MIGRATION_NETWORKS, type MigrationNetwork } from './migration-networks.js';
import { DEFAULT_PAGE_SIZE, readBlockHeaderAtHeight, readTipHeight } from './v3/v3-chain.js';
import { V3Database } from './v3/v3-database.js';
import { rollbackOverlay } from './v3/v3-rollback.js';

export type { MigrationCounts } from './assets/genesis-assets.js';
export type { MigrationNetwork } from './migration-networks.js';

export interface MigrationProgress {
  readonly phase: 'scan' | 'assets' | 'genesis';
  readonly done: number;
  readonly total?: number;
}

export interface MigrateSnapshotOptions {
  /** The v3 blockchain.db directory (opened read-only). */
  readonly dbPath: string;
  readonly snapshotHeight: number;
  /** Decides the token ID, the chain ID and the bundled v4 config. */
  readonly network: MigrationNetwork;
  /** Entries per page of the scans (lisk-migrator `--page-size`); no effect on the result. */
  readonly pageSize?: number;
  /**
   * When the database tip is above the snapshot height: read the database as it was at the
   * snapshot height, undoing the later blocks with Lisk Core 3's own state diffs (v3-rollback.ts),
   * instead of refusing. Off by default. The files are never changed.
   */
  readonly rollbackToSnapshot?: boolean;
  readonly onProgress?: (progress: MigrationProgress) => void;
}

export interface MigratedSnapshot {
  /** genesis_assets.json text (tab-indented like the migrator). */
  readonly genesisAssetsJson: string;
  /** genesis_block.blob bytes. */
  readonly genesisBlock: Uint8Array;
  /** genesis_block.json text (2-space indent, like block.toJSON()). */
  readonly genesisBlockJson: string;
  readonly snapshotBlock: { readonly id: Buffer; readonly height: number; readonly timestamp: number };
  readonly counts: MigrationCounts;
}

/** lisk-migrator's gap between the snapshot block and the genesis block, in seconds. */
export const GENESIS_TIMESTAMP_GAP = 3600;
const MAX_UINT32 = 0xffff_ffff;

/**
 * Migrates the database at `dbPath`. Fails with MigrationError: the database codes of
 * v3-database.ts, MIGRATION_DB_AHEAD when the tip is above the snapshot height (lisk-migrator
 * would silently use the tip state) and no rollback was asked for, MIGRATION_ROLLBACK_UNAVAILABLE
 * when one was but a state diff is missing, MIGRATION_VOTE_WEIGHTS_MISSING and MIGRATION_KEY_MISSING
 * with lisk-migrator's messages, MIGRATION_GENESIS_FAILED when the v4 modules refuse the assets.
 * The last two carry `genesisAssetsJson`, which lisk-migrator has written by then.
 */
export async function migrateSnapshot(options: MigrateSnapshotOptions): Promise<MigratedSnapshot> {
  const { snapshotHeight, onProgress } = options;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  checkOptions(options, pageSize);
  const network = MIGRATION_NETWORKS[options.network];

  const db = await V3Database.open(options.dbPath);
  try {
    const tipHeight = await readTipHeight(db);
    if (tipHeight > snapshotHeight && options.rollbackToSnapshot === true) {
      db.setOverlay(await rollbackOverlay(db, tipHeight, snapshotHeight));
    } else if (tipHeight > snapshotHeight) {
      throw new MigrationError(
        'MIGRATION_DB_AHEAD',
        `The Lisk Core v3 database ends at height ${tipHeight}, above the snapshot height ${snapshotHeight}: its accounts are the state at height ${tipHeight}, not at the snapshot. Use the database as it was at height ${snapshotHeight} (Lisk Core 3.1 checkpoints it to data/backup at the snapshot height), or pass --rollback-to-snapshot to undo the blocks above it with the database's own state diffs (the files are not changed).`,
      );
    }
    onProgress?.({ phase: 'scan', done: 0 });
    const built = await buildGenesisAssets(db, {
      snapshotHeight,
      tokenID: Buffer.from(network.tokenID, 'hex'),
      pageSize,
      onProgress: (phase, done) => onProgress?.({ phase, done }),
    });
    const genesisAssetsJson = built.json;

    let snapshot: Awaited<ReturnType<typeof readBlockHeaderAtHeight>>;
    try {
      snapshot = await readBlockHeaderAtHeight(db, snapshotHeight);
    } catch (error) {
      throw withAssets(error, genesisAssetsJson);
    }
    // Everything is read: the database's caches need not outlive it into genesis execution.
    await db.close();

    onProgress?.({ phase: 'genesis', done: 0, total: 1 });
    const chainConfig = parseChainConfig(network.config, process.cwd());
    let block: Awaited<ReturnType<typeof createGenesisBlock>>['block'];
    try {
      ({ block } = await createGenesisBlock({
        genesisConfig: chainConfig.genesis,
        moduleConfigs: chainConfig.modules,
        assets: [],
        encodedAssets: built.assets,
        height: snapshotHeight + 1,
        timestamp: snapshot.header.timestamp + GENESIS_TIMESTAMP_GAP,
        previousBlockID: snapshot.id,
      }));
    } catch (error) {
      if (!(error instanceof GenesisBuildError)) throw error;
      throw new MigrationError('MIGRATION_GENESIS_FAILED', `Failed to create genesis block.\nError: ${error.message}`, genesisAssetsJson, {
        cause: error,
      });
    }
    onProgress?.({ phase: 'genesis', done: 1, total: 1 });

    return {
      genesisAssetsJson,
      genesisBlock: block.bytes,
      genesisBlockJson: JSON.stringify(block.toJSON(), null, 2),
      snapshotBlock: { id: snapshot.id, height: snapshot.header.height, timestamp: snapshot.header.timestamp },
      counts: built.counts,
    };
  } finally {
    await db.close();
  }
}

function checkOptions(options: MigrateSnapshotOptions, pageSize: number): void {
  if (!Number.isInteger(options.snapshotHeight) || options.snapshotHeight < 0 || options.snapshotHeight >= MAX_UINT32) {
    throw new MigrationError(
      'MIGRATION_INVALID_OPTIONS',
      `Invalid snapshot height ${options.snapshotHeight}: it must be an integer from 0 to ${MAX_UINT32 - 1}.`,
    );
  }
  if (!Object.hasOwn(MIGRATION_NETWORKS, options.network)) {
    throw new MigrationError('MIGRATION_INVALID_OPTIONS', `Unknown network ${String(options.network)}: it must be mainnet or testnet.`);
  }
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new MigrationError('MIGRATION_INVALID_OPTIONS', `Invalid page size ${pageSize}: it must be a positive integer.`);
  }
}

/** The same failure, carrying the genesis assets text already produced. */
function withAssets(error: unknown, genesisAssetsJson: string): unknown {
  if (!(error instanceof MigrationError)) return error;
  return new MigrationError(error.code, error.message, genesisAssetsJson, { cause: error.cause });
}
