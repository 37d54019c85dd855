/**
 * The minimum fee of a transaction (LIP 0048 "Minimum fee"): minFeePerByte ×
 * its encoded size (signatures included), or 0 below maxBlockHeightZeroFeePerByte.
 */
import type { FeeConfig } from './config.js';

export function minimumFee(config: FeeConfig, blockHeight: number, transactionSize: number): bigint {
  if (blockHeight < config.maxBlockHeightZeroFeePerByte) return 0n;
  return BigInt(config.minFeePerByte) * BigInt(transactionSize);
}
