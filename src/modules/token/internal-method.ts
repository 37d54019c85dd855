/**
 * Operations shared by token's commands and TokenMethod that skip the public checks
 * (lisk-sdk token/internal_method.ts): account creation that charges the initialization fee,
 * and the unconditional part of a transfer.
 */
import { encodeLisk32 } from '../../crypto/index.js';
import type { MethodContext } from '../base/index.js';
import type { TokenDependencySlots } from './dependencies.js';
import { InsufficientBalanceError } from './errors.js';
import { initializeEscrowAccountEvent, initializeUserAccountEvent, transferEvent } from './events.js';
import type { TokenSettings } from './settings.js';
import { escrowKey, escrowStore, userKey, userStore } from './stores.js';
import { saveUserAccount } from './user-account.js';

export class TokenInternalMethod {
  constructor(
    private readonly settings: TokenSettings,
    private readonly dependencies: TokenDependencySlots,
  ) {}

  /**
   * Charges the user-account initialization fee (fee module payFee, which throws and emits
   * `insufficientFee` when the transaction's remaining fee is too small), then creates an empty
   * account and emits `initializeUserAccount`.
   */
  initializeUserAccount(context: MethodContext, address: Buffer, tokenID: Buffer): void {
    const initializationFee = this.settings.config.userAccountInitializationFee;
    this.dependencies.fee.payFee(context, initializationFee);
    userStore.set(context.state, userKey(address, tokenID), { availableBalance: 0n, lockedBalances: [] });
    initializeUserAccountEvent.log(context.events, { address, tokenID, initializationFee });
  }

  /** Charges the escrow initialization fee, creates an empty escrow account, emits `initializeEscrowAccount`. */
  initializeEscrowAccount(context: MethodContext, chainID: Buffer, tokenID: Buffer): void {
    const initializationFee = this.settings.config.escrowAccountInitializationFee;
    this.dependencies.fee.payFee(context, initializationFee);
    escrowStore.set(context.state, escrowKey(chainID, tokenID), { amount: 0n });
    initializeEscrowAccountEvent.log(context.events, { chainID, tokenID, initializationFee });
  }

  /**
   * Moves `amount` between two existing accounts and emits `transfer`. Throws NotFoundError when
   * either account is missing and InsufficientBalanceError (without an event) when the sender's
   * available balance is too small.
   */
  transfer(context: MethodContext, senderAddress: Buffer, recipientAddress: Buffer, tokenID: Buffer, amount: bigint): void {
    const sender = userStore.getOrThrow(context.state, userKey(senderAddress, tokenID));
    if (sender.availableBalance < amount) {
      throw new InsufficientBalanceError(encodeLisk32(senderAddress), sender.availableBalance, amount);
    }
    sender.availableBalance -= amount;
    saveUserAccount(context.state, senderAddress, tokenID, sender);

    // Read after the sender is saved: sender and recipient may be the same account.
    const recipient = userStore.getOrThrow(context.state, userKey(recipientAddress, tokenID));
    recipient.availableBalance += amount;
    saveUserAccount(context.state, recipientAddress, tokenID, recipient);

    transferEvent.log(context.events, { senderAddress, recipientAddress, tokenID, amount });
  }
}
