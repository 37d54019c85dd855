/**
 * `commandsToExecute.txt`: the commands an operator runs after a migration, laid out exactly as
 * lisk-migrator 2.0.1 writes them (`src/utils/commands.ts` and the catch block of `src/index.ts`),
 * with Basalt's command name where the migrator names `lisk-core`. Operators who follow a Lisk
 * guide find the same blocks, the same spacing and the same `generator_setStatus` values.
 */
import { resolve } from 'node:path';
import type { ForgingStatusEntry } from './forging-status.js';
import { MigrationError, type MigrationErrorCode } from './migration-error.js';

export const COMMANDS_FILE_NAME = 'commandsToExecute.txt';

/** The command prefix written in front of every node command. */
export const NODE_COMMAND = 'basalt';

const HEADER = '## Please execute the following commands to finish the migration successfully:';
const HEADER_RULE = '------------------------------------------------------------------------------';
const BLOCK_RULE = '-----------------------------------------------------';

/**
 * Why a migration stopped, which decides the recovery commands listed (the migrator's error
 * codes): 0 any other failure, 1 invalid migrated config, 2 genesis block creation, 3 starting the
 * v4 node, 4 moving the v3 data directory aside, 5 copying the legacy database.
 */
export type RecoveryCode = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * The migrator's error code of each failure it gives one (`src/constants.ts` `ERROR_CODE`);
 * every other failure has none there, and so no recovery commands. The legacy import stands
 * where the migrator copies the v3 database to legacy.db.
 */
const RECOVERY_CODES: Partial<Record<MigrationErrorCode, RecoveryCode>> = {
  MIGRATION_CONFIG_MISSING: 1,
  MIGRATION_CONFIG_INVALID: 1,
  MIGRATION_GENESIS_FAILED: 2,
  MIGRATION_AUTO_START: 3,
  MIGRATION_V3_BACKUP: 4,
  MIGRATION_LEGACY_IMPORT: 5,
};

/** The recovery code of a failure: by its code for a MigrationError, none for anything else. */
export function recoveryCodeOf(error: unknown): RecoveryCode | undefined {
  return error instanceof MigrationError ? RECOVERY_CODES[error.code] : undefined;
}

export interface ValidatorCommandsOptions {
  /** First byte of the LSK token ID: 0 mainnet, 1 testnet. */
  readonly chainId: number;
  readonly snapshotHeight: number;
  /** The output directory; made absolute, as the migrator does. */
  readonly outputDir: string;
}

/** One block, framed like every block of the file: blank lines, a title, the commands, a rule. */
function block(title: readonly string[], commands: readonly string[]): string[] {
  return ['\n', ...title, '\n', ...commands, '\n', BLOCK_RULE, '\n'];
}

/**
 * The per-validator blocks: new keys with the legacy derivation path, the hash onion, the
 * generator info taken over from v3 (missing values fall back to the snapshot height, which never
 * lets a validator sign below what it may already have signed), enabling, and registering the keys.
 */
export function validatorCommands(entries: readonly ForgingStatusEntry[], options: ValidatorCommandsOptions): string[] {
  const keysFile = resolve(options.outputDir, 'keys.json');
  const lines: string[] = [];
  for (const entry of entries) {
    const address = entry.lskAddress;
    const height = entry.height ?? options.snapshotHeight;
    const generated = entry.maxHeightPreviouslyForged ?? options.snapshotHeight;
    const prevoted = entry.maxHeightPrevoted ?? options.snapshotHeight;
    lines.push(
      ...block(
        [`## Generate/Register the BLS keys for validator ${address} - Please modify the command if necessary`],
        [
          `${NODE_COMMAND} keys:create --chainid ${options.chainId} --output ${keysFile} --add-legacy`,
          `${NODE_COMMAND} keys:import --file-path ${keysFile}`,
          `${NODE_COMMAND} endpoint:invoke random_setHashOnion '{ "address":"${address}"}'`,
          // Two spaces after the last two colons: the migrator's spacing, kept so the file diffs clean.
          `${NODE_COMMAND} endpoint:invoke generator_setStatus '{ "address":"${address}", "height": ${height}, "maxHeightGenerated":  ${generated}, "maxHeightPrevoted":  ${prevoted} }' --pretty`,
          `${NODE_COMMAND} generator:enable ${address} --use-status-value`,
          `${NODE_COMMAND} transaction:create legacy registerKeys 400000 --key-derivation-path=legacy --send`,
        ],
      ),
    );
  }
  return lines;
}

export interface RecoveryCommandsOptions {
  /** What creates the genesis block again (undefined when the run never got that far). */
  readonly genesisCommand: string | undefined;
  /** Moves the v3 data directory aside (never deletes it). */
  readonly backupDataDirCommand: string;
  /**
   * Imports the v3 history into Basalt's legacy chain store (`basalt legacy:import`), where the
   * migrator copies the v3 snapshot database to legacy.db for Lisk Core 4.
   */
  readonly legacyImportCommand: string;
  /** Starts the v4 node. */
  readonly startCommand: string;
}

/**
 * The recovery blocks for a failure with a code, in the migrator's order: each step is listed
 * for the codes of failures that happened before that step was done.
 */
export function recoveryCommands(code: RecoveryCode, options: RecoveryCommandsOptions): string[] {
  const lines: string[] = [];
  if (code <= 2) {
    lines.push(
      ...block(
        [
          '## Create the genesis block',
          `## NOTE: This reruns the migration offline from the v3 snapshot database; ${NODE_COMMAND} builds the genesis block itself`,
        ],
        [String(options.genesisCommand)],
      ),
    );
  }
  if (code <= 2 || code === 4) {
    lines.push(...block(['## Backup Lisk Core v3 data directory'], [options.backupDataDirCommand]));
  }
  if (code !== 3) {
    lines.push(
      ...block(
        [
          '## Copy legacy (v3) blockchain information to Lisk Core v4 legacy.db',
          `## NOTE: ${NODE_COMMAND} imports the v3 blocks into its own legacy chain store instead of reading a copied legacy.db`,
        ],
        [options.legacyImportCommand],
      ),
    );
  }
  lines.push(...block(['## Lisk Core v4 start command - Please modify if necessary'], [options.startCommand]));
  return lines;
}

/**
 * The file's text, or undefined when there is nothing to run (the migrator then writes no
 * file). Lines are joined with `\n`, without a final newline, as the migrator writes them.
 */
export function renderCommandsFile(recovery: readonly string[], validators: readonly string[]): string | undefined {
  if (recovery.length === 0 && validators.length === 0) return undefined;
  return [HEADER, HEADER_RULE, '\n', ...recovery, ...validators].join('\n');
}
