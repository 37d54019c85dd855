/**
 * Config of the random module (`modules.random` of a Lisk config.json; lisk-sdk
 * randomModuleConfig): only `maxLengthReveals`, a uint32 defaulting to 206.
 */
import { ValidationError } from '../../errors.js';
import { DEFAULT_MAX_LENGTH_REVEALS } from './constants.js';

export interface RandomModuleConfig {
  /** How many reveals validatorReveals keeps (the oldest is dropped first). */
  readonly maxLengthReveals: number;
}

export const DEFAULT_RANDOM_CONFIG: RandomModuleConfig = Object.freeze({
  maxLengthReveals: DEFAULT_MAX_LENGTH_REVEALS,
});

const MAX_UINT32 = 0xffff_ffff;

/** Merges `moduleConfig` over the defaults and validates it; unknown keys are ignored, as in lisk-sdk. */
export function parseRandomConfig(moduleConfig: Record<string, unknown>): RandomModuleConfig {
  const given = moduleConfig.maxLengthReveals;
  const value = given === undefined ? DEFAULT_RANDOM_CONFIG.maxLengthReveals : given;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_UINT32) {
    throw new ValidationError([`.modules.random.maxLengthReveals: must be an integer in 0..${MAX_UINT32}, got ${JSON.stringify(value)}`]);
  }
  return { maxLengthReveals: value };
}
