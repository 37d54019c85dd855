/** Errors specific to the auth module. */
import { BasaltError } from '../../errors.js';

/** A transaction whose nonce was already used (lisk-sdk InvalidNonceError, code ERR_INVALID_NONCE). */
export class InvalidNonceError extends BasaltError {
  /** The transaction's nonce and the account's current one, as decimal strings like lisk-sdk. */
  readonly actual: string;
  readonly expected: string;

  constructor(transactionID: Buffer, actual: bigint, expected: bigint) {
    super('ERR_INVALID_NONCE', `Transaction with id:${transactionID.toString('hex')} nonce is lower than account nonce.`);
    this.actual = actual.toString();
    this.expected = expected.toString();
  }
}
