/**
 * Config of the token module (`modules.token` of a Lisk config.json; lisk-sdk token configSchema
 * and defaultConfig): the fees charged when a transfer creates a user account or an escrow
 * account. lisk-sdk 6.1 has no other token config key; unknown keys are ignored, as there.
 */
import { validationErrors } from '../../codec/index.js';
import { ValidationError } from '../../errors.js';
import { DEFAULT_ESCROW_ACCOUNT_INITIALIZATION_FEE, DEFAULT_USER_ACCOUNT_INITIALIZATION_FEE } from './constants.js';
import { tokenConfigSchema } from './schemas.js';

export interface TokenModuleConfig {
  readonly userAccountInitializationFee: bigint;
  readonly escrowAccountInitializationFee: bigint;
}

export const DEFAULT_TOKEN_CONFIG: TokenModuleConfig = Object.freeze({
  userAccountInitializationFee: DEFAULT_USER_ACCOUNT_INITIALIZATION_FEE,
  escrowAccountInitializationFee: DEFAULT_ESCROW_ACCOUNT_INITIALIZATION_FEE,
});

/**
 * Merges `moduleConfig` over the defaults and validates it against lisk-sdk's config schema
 * (each fee a decimal uint64 string). Throws ValidationError with `.modules.token.<key>` paths.
 */
export function parseTokenConfig(moduleConfig: Record<string, unknown>): TokenModuleConfig {
  const merged: Record<string, unknown> = {
    userAccountInitializationFee: DEFAULT_TOKEN_CONFIG.userAccountInitializationFee.toString(),
    escrowAccountInitializationFee: DEFAULT_TOKEN_CONFIG.escrowAccountInitializationFee.toString(),
  };
  for (const [key, value] of Object.entries(moduleConfig)) {
    if (value !== undefined) merged[key] = value;
  }
  const problems = validationErrors(tokenConfigSchema, merged);
  if (problems.length > 0) {
    throw new ValidationError(problems.map((problem) => `.modules.token${problem}`));
  }
  return {
    userAccountInitializationFee: BigInt(merged.userAccountInitializationFee as string),
    escrowAccountInitializationFee: BigInt(merged.escrowAccountInitializationFee as string),
  };
}
