/**
 * Config of the legacy module (`modules.legacy` of a Lisk Core config.json; lisk-core
 * legacy/constants.ts defaultConfig and utils.ts getModuleConfig).
 */
import { ValidationError } from '../../errors.js';
import { DEFAULT_TOKEN_ID_RECLAIM } from './constants.js';

export interface LegacyConfig {
  /** The token reclaimed LSK is paid in: own chain ID ‖ local ID of the configured value (8 bytes). */
  readonly tokenIDReclaim: Buffer;
}

/** lisk-core's defaultConfig, in its JSON form. */
export const DEFAULT_LEGACY_CONFIG = Object.freeze({ tokenIDReclaim: DEFAULT_TOKEN_ID_RECLAIM });

const TOKEN_ID_PATTERN = /^[0-9a-fA-F]{16}$/;

/**
 * Merges `moduleConfig` over the defaults (null/undefined keep the default; other keys are
 * ignored, lisk-core has no config schema) and derives tokenIDReclaim: the configured token ID
 * with its chain part (first 4 bytes) replaced by `chainID`, so `0000000000000000` becomes
 * `04000000 00000000` on devnet. lisk-core does not check the value; here anything other than a
 * 16-digit hex string is refused (lisk-core would derive a malformed token ID from it).
 * Throws ValidationError `.modules.legacy.tokenIDReclaim: …`.
 */
export function parseLegacyConfig(moduleConfig: Record<string, unknown>, chainID: Buffer): LegacyConfig {
  const configured = moduleConfig.tokenIDReclaim ?? DEFAULT_LEGACY_CONFIG.tokenIDReclaim;
  if (typeof configured !== 'string' || !TOKEN_ID_PATTERN.test(configured)) {
    throw new ValidationError([`.modules.legacy.tokenIDReclaim: must be a hex string of 16 characters, got ${JSON.stringify(configured)}`]);
  }
  const localID = Buffer.from(configured.slice(8), 'hex');
  return { tokenIDReclaim: Buffer.concat([chainID, localID]) };
}
