/**
 * The one error class of the migration room. Every failure a user can meet while migrating a
 * Lisk Core 3 database, or in the steps around it (flags, the v3 node, config, output files,
 * auto-start, the legacy import), carries a stable code; where lisk-migrator 2.0.1 prints a
 * message for the same failure, the message is the migrator's, word for word, so operators can
 * search for it. Which recovery commands a failure leaves in commandsToExecute.txt follows from
 * its code alone (`recoveryCodeOf` in commands-file.ts).
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
  | 'MIGRATION_GENESIS_FAILED'
  /** The command's flags do not go together (the migrator's oclif rules and wording). */
  | 'MIGRATION_FLAGS'
  /** `--output` under the Lisk Core data path. */
  | 'MIGRATION_OUTPUT_PATH'
  /** `--snapshot-url` is not an http(s) .tar.gz address. */
  | 'MIGRATION_SNAPSHOT_URL'
  /** The snapshot archive cannot be downloaded. */
  | 'MIGRATION_SNAPSHOT_DOWNLOAD'
  /** The downloaded archive does not match its .SHA256. */
  | 'MIGRATION_SNAPSHOT_CHECKSUM'
  /** The snapshot archive cannot be extracted, or is empty. */
  | 'MIGRATION_SNAPSHOT_ARCHIVE'
  /** The v3 node cannot be reached, or the connection broke. */
  | 'MIGRATION_V3_CONNECTION'
  /** The v3 node answered a request with an error. */
  | 'MIGRATION_V3_RPC'
  /** The v3 node fails a check of the online mode (version, backup height, snapshot height). */
  | 'MIGRATION_V3_CHECK'
  /** The v3 node's network identifier is not one the migration knows. */
  | 'MIGRATION_UNKNOWN_NETWORK'
  /** The wait for the snapshot height to become final was stopped. */
  | 'MIGRATION_ABORTED'
  /** A v3 config file cannot be read or is not a JSON object. */
  | 'MIGRATION_CONFIG_UNREADABLE'
  /** `--auto-migrate-config` without a v3 config to migrate. */
  | 'MIGRATION_CONFIG_MISSING'
  /** The migrated config fails Basalt's config validation. */
  | 'MIGRATION_CONFIG_INVALID'
  /** Starting Basalt after the migration failed or was declined. */
  | 'MIGRATION_AUTO_START'
  /** The v3 data directory cannot be moved aside. */
  | 'MIGRATION_V3_BACKUP'
  /** The v3 blocks cannot be imported into Basalt's legacy chain store. */
  | 'MIGRATION_LEGACY_IMPORT';

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
