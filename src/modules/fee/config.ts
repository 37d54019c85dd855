/**
 * The `modules.fee` config section (LIP 0048 "Configuration"; lisk-sdk fee/schemas.ts
 * configSchema and module.ts init): defaults are lisk-sdk's, and the fee token defaults to the
 * chain's native token chainID ‖ 00000000.
 */
import { decodeLisk32 } from '../../crypto/index.js';
import { ValidationError } from '../../errors.js';
import type { GenesisConfig } from '../../config/genesis-config.js';
import { DEFAULT_MAX_BLOCK_HEIGHT_ZERO_FEE_PER_BYTE, DEFAULT_MIN_FEE_PER_BYTE, TOKEN_ID_LENGTH } from './constants.js';

export interface FeeConfig {
  /** The token fees are paid in (8 bytes). */
  readonly feeTokenID: Buffer;
  /** Beddows per byte of the encoded transaction. */
  readonly minFeePerByte: number;
  /** Below this height the minimum fee is 0. */
  readonly maxBlockHeightZeroFeePerByte: number;
  /** When set and holding a fee-token account, receives the minimum fee instead of burning it. */
  readonly feePoolAddress?: Buffer;
}

const HEX = /^([0-9a-f]{2})*$/i;
const MAX_UINT32 = 0xffff_ffff;

function invalid(key: string, reason: string, value: unknown): never {
  throw new ValidationError([`.modules.fee.${key}: ${reason}, got ${JSON.stringify(value)}`]);
}

function uint32(section: Record<string, unknown>, key: string, fallback: number): number {
  const value = section[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_UINT32) {
    invalid(key, 'must be an integer in 0..4294967295', value);
  }
  return value;
}

/**
 * Merges the section over the defaults and validates it. Stricter than lisk-sdk in one point:
 * feeTokenID must be exactly 8 bytes (lisk-sdk accepts any hex and then fails at the first fee).
 */
export function parseFeeConfig(section: Record<string, unknown>, genesis: GenesisConfig): FeeConfig {
  const tokenHex = section.feeTokenID ?? `${genesis.chainID.toString('hex')}00000000`;
  if (typeof tokenHex !== 'string' || !HEX.test(tokenHex) || tokenHex.length !== TOKEN_ID_LENGTH * 2) {
    invalid('feeTokenID', `must be a hex string of ${TOKEN_ID_LENGTH} bytes`, tokenHex);
  }
  const config: { -readonly [K in keyof FeeConfig]: FeeConfig[K] } = {
    feeTokenID: Buffer.from(tokenHex, 'hex'),
    minFeePerByte: uint32(section, 'minFeePerByte', DEFAULT_MIN_FEE_PER_BYTE),
    maxBlockHeightZeroFeePerByte: uint32(section, 'maxBlockHeightZeroFeePerByte', DEFAULT_MAX_BLOCK_HEIGHT_ZERO_FEE_PER_BYTE),
  };
  const pool = section.feePoolAddress;
  if (pool !== undefined) {
    if (typeof pool !== 'string') invalid('feePoolAddress', 'must be a lisk32 address', pool);
    try {
      config.feePoolAddress = decodeLisk32(pool);
    } catch (error) {
      invalid('feePoolAddress', (error as Error).message, pool);
    }
  }
  return config;
}
