/**
 * The `modules.auth` config section (lisk-sdk auth/schemas.ts configSchema, defaults from
 * auth/constants.ts defaultConfig).
 */
import { ValidationError } from '../../errors.js';
import { MAX_NUMBER_OF_SIGNATURES } from './constants.js';

export interface AuthConfig {
  /** Upper bound on mandatory + optional keys in registrations and genesis accounts. */
  readonly maxNumberOfSignatures: number;
}

export const DEFAULT_AUTH_CONFIG: AuthConfig = Object.freeze({ maxNumberOfSignatures: MAX_NUMBER_OF_SIGNATURES });

/** Merges the section over the defaults and validates it (integer, uint32 like lisk-sdk). */
export function parseAuthConfig(section: Record<string, unknown>): AuthConfig {
  const value = section.maxNumberOfSignatures ?? DEFAULT_AUTH_CONFIG.maxNumberOfSignatures;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw new ValidationError([`.modules.auth.maxNumberOfSignatures: must be an integer in 0..4294967295, got ${JSON.stringify(value)}`]);
  }
  return { maxNumberOfSignatures: value };
}
