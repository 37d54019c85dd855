/**
 * Failures of the steps around the snapshot migration (config migration, talking to the v3 node,
 * output files, downloads, auto-start). Each has a stable `code`; `recoveryCode` is lisk-migrator
 * 2.0.1's error code (`src/constants.ts` `ERROR_CODE`), which decides the recovery commands that
 * go into commandsToExecute.txt. Failures the migrator reports without a code (most checks) have
 * none here either, and then no recovery commands are written.
 */
import { BasaltError } from '../errors.js';
import type { RecoveryCode } from './commands-file.js';

export class MigrationStepError extends BasaltError {
  constructor(
    code: string,
    message: string,
    readonly recoveryCode?: RecoveryCode,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
