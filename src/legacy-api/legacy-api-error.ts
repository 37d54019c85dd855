import { BasaltError } from '../errors.js';

/** The operator's legacy config (or the forger_info file) cannot be used; the node does not start. */
export class LegacyApiConfigError extends BasaltError {
  constructor(message: string) {
    super('ERR_LEGACY_API_CONFIG', message);
  }
}

/**
 * A forging toggle that cannot be done. Lisk Core 1.x/2.x answer every such failure with 404
 * and `{"message": <text>}` (cli_migration.md §6.2), so the text is the stable part; it never
 * holds a password or passphrase.
 */
export class ForgingToggleError extends BasaltError {
  constructor(message: string) {
    super('ERR_LEGACY_FORGING_TOGGLE', message);
  }
}
