/**
 * Token-specific errors. InsufficientBalanceError mirrors lisk-sdk's (framework/src/errors.ts),
 * including its message, which dry runs and the transaction pool report to clients.
 */
import { BasaltError } from '../../errors.js';

/** An account's available balance does not cover an amount (code ERR_INSUFFICIENT_BALANCE). */
export class InsufficientBalanceError extends BasaltError {
  constructor(lisk32Address: string, availableBalance: bigint, amount: bigint, tokenIDHex?: string) {
    const forToken = tokenIDHex === undefined ? '' : ` for ${tokenIDHex}`;
    super(
      'ERR_INSUFFICIENT_BALANCE',
      `${lisk32Address} balance ${availableBalance.toString()}${forToken} is not sufficient for ${amount.toString()}.`,
    );
  }
}
