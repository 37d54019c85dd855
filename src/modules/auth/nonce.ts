/**
 * Nonce rule of transaction verification (LIP 0041; lisk-sdk auth/utils.ts
 * verifyNonce): a nonce below the account's is spent (FAIL), above it is a future transaction
 * (PENDING: the pool may keep it, a block may not contain it), equal is the next one (OK).
 */
import { VerifyStatus } from '../base/index.js';

export function nonceStatus(transactionNonce: bigint, accountNonce: bigint): VerifyStatus {
  if (transactionNonce < accountNonce) return VerifyStatus.FAIL;
  return transactionNonce > accountNonce ? VerifyStatus.PENDING : VerifyStatus.OK;
}
