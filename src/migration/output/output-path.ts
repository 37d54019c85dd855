/**
 * Where a migration writes, after lisk-migrator 2.0.1 (`src/utils/path.ts`): paths expand `~`
 * and resolve against the working directory, and no output may go under Lisk Core's default data
 * path, which the v4 node (and an auto-start's rename) takes over.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { MigrationError } from '../migration-error.js';

/** Lisk Core's default data path, the one the output must stay out of. */
export const DEFAULT_LISK_CORE_PATH = '~/.lisk/lisk-core';

/** The migrator's path rule: absolute as is, a leading `~` is the home directory, else under cwd. */
export function resolveMigrationPath(path: string, cwd = process.cwd(), home = homedir()): string {
  if (isAbsolute(path)) return path;
  if (path.startsWith('~')) return path.replace('~', home);
  return join(cwd, path);
}

/**
 * Refuses an output path that starts with the absolute default Lisk Core path, compared as
 * strings as the migrator does (so `~/.lisk/lisk-core-v3/out` is refused too), with its message.
 */
export function verifyOutputPath(given: string, cwd = process.cwd(), home = homedir()): void {
  if (resolveMigrationPath(given, cwd, home).startsWith(resolveMigrationPath(DEFAULT_LISK_CORE_PATH, cwd, home))) {
    throw new MigrationError(
      'MIGRATION_OUTPUT_PATH',
      `Output path '${given}' is not allowed. Please restart the migrator with a different output path.`,
    );
  }
}

/**
 * The output directory: `--output` as given (no sub-folder), else `./output/<label>` under the
 * working directory, where the label is the v3 network identifier (online) or the network name
 * (offline). The migrator uses its own install directory instead of the working directory;
 * Basalt has no per-tool install directory an operator would look in.
 */
export function outputDirectory(given: string | undefined, label: string, cwd = process.cwd(), home = homedir()): string {
  return given === undefined ? join(cwd, 'output', label) : resolveMigrationPath(given, cwd, home);
}
