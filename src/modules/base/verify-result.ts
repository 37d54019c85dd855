/**
 * Outcome of a transaction or command verification (lisk-sdk VerifyStatus). PENDING means "valid
 * later" (a future nonce): the pool may keep such a transaction, a block may not contain it.
 */
import { TransactionVerifyError } from '../../errors.js';
export enum VerifyStatus {
  FAIL = -1,
  PENDING = 0,
  OK = 1,
}

export interface VerificationResult {
  readonly status: VerifyStatus;
  readonly error?: Error;
}

export const VERIFY_OK: VerificationResult = Object.freeze({ status: VerifyStatus.OK });

export function verifyFail(message: string): VerificationResult {
  return { status: VerifyStatus.FAIL, error: new TransactionVerifyError(message) };
}

/** A FAIL result carrying what a verification threw (anything not an Error is wrapped). */
export function verifyFailWith(error: unknown): VerificationResult {
  return { status: VerifyStatus.FAIL, error: error instanceof Error ? error : new TransactionVerifyError(String(error)) };
}
