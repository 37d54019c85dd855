/**
 * The one error class of the migration room. Every failure a user can meet while migrating a
 * Lisk Core 3 database carries a stable code; where lisk-migrator 2.0.1 prints a message for the
 * same failure, the message is the migrator's, word for word, so operators can search for it.
 */
import { BasaltError } from '../errors.js';

export type MigrationErrorCode =
  /** The v3 database directory does not exist or is not a directory. */
  | 'MIGRATION_DB_MISSING'
  /** The directory is not a RocksDB database (no CURRENT/MANIFEST). */
  | 'MIGRATION_DB_NOT_ROCKSDB'
  /** RocksDB reports corruption, or a stored value does not decode under its v3 schema. */
  | 'MIGRATION_DB_CORRUPT'
  /** A RocksDB database, but not a Lisk Core 3 blockchain.db (no `blocks:height:` keys). */
  | 'MIGRATION_DB_FOREIGN'
  /** The database tip is above the snapshot height: its state is not the snapshot's. */
  | 'MIGRATION_DB_AHEAD'
  /** The database cannot be rolled back to the snapshot height (a block or state diff is missing). */
  | 'MIGRATION_ROLLBACK_UNAVAILABLE'
  /** A key the migration needs (the snapshot block) is absent. */
  | 'MIGRATION_KEY_MISSING'
  /** The delegate vote weights of round r-2 are absent (lisk-migrator's plain Error). */
  | 'MIGRATION_VOTE_WEIGHTS_MISSING'
  /** The options given to the migration are not acceptable. */
  | 'MIGRATION_INVALID_OPTIONS'
  /** The v4 genesis execution refused the migrated assets. */
  | 'MIGRATION_GENESIS_FAILED';

export class MigrationError extends BasaltError {
  declare readonly code: MigrationErrorCode;

  constructor(
    code: MigrationErrorCode,
    message: string,
    /**
     * What was already produced when the failure happened: lisk-migrator writes
     * genesis_assets.json before it reads the snapshot block, so a caller reproducing its output
     * folder writes this text even though the migration failed.
     */
    readonly genesisAssetsJson?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
