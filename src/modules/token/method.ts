/**
 * TokenMethod: what other modules call (LIP 0051 "Methods"; lisk-sdk token/method.ts), with the
 * same names, parameter order, checks, check order and events. State access is synchronous.
 * Failures throw; where lisk-sdk emits an `error` event before throwing, so does this, and that
 * event is non-revertible (it stays in the block even though the command fails).
 */
import { codec } from '../../codec/index.js';
import { encodeLisk32 } from '../../crypto/index.js';
import type { MethodContext, ReadContext } from '../base/index.js';
import { CROSS_CHAIN_COMMAND_NAME_TRANSFER, MAX_DATA_LENGTH, TokenEventResult, UINT64_LIMIT } from './constants.js';
import type { TokenDependencySlots } from './dependencies.js';
import {
  allTokensFromChainSupportedEvent,
  allTokensFromChainSupportRemovedEvent,
  allTokensSupportedEvent,
  allTokensSupportRemovedEvent,
  burnEvent,
  initializeTokenEvent,
  lockEvent,
  mintEvent,
  tokenIDSupportedEvent,
  tokenIDSupportRemovedEvent,
  transferCrossChainEvent,
  transferEvent,
  unlockEvent,
} from './events.js';
import type { TokenInternalMethod } from './internal-method.js';
import { crossChainTransferMessageParamsSchema } from './schemas.js';
import type { TokenSettings } from './settings.js';
import {
  ALL_SUPPORTED_TOKENS_KEY,
  escrowKey,
  escrowStore,
  supplyStore,
  supportedTokensStore,
  TOKEN_ID_RANGE,
  userKey,
  userStore,
} from './stores.js';
import { isTokenSupported, removeAllChainSupport, supportAllTokensInStore, supportTokenInStore } from './supported-tokens.js';
import { lskTokenIDOf, tokenChainID } from './token-id.js';
import { saveUserAccount } from './user-account.js';
import { addEscrowAmount } from './escrow-account.js';
import { ExecutionError } from '../../errors.js';

function insufficientBalanceMessage(address: Buffer, amount: bigint): string {
  return `Address ${encodeLisk32(address)} does not have sufficient balance for amount ${amount.toString()}`;
}

export class TokenMethod {
  constructor(
    private readonly moduleName: string,
    private readonly settings: TokenSettings,
    private readonly dependencies: TokenDependencySlots,
    private readonly internal: TokenInternalMethod,
  ) {}

  /** Whether the token was minted by this chain. */
  isNativeToken(tokenID: Buffer): boolean {
    return tokenChainID(tokenID).equals(this.settings.ownChainID);
  }

  /** The LSK token ID of this chain's network: `networkByte ‖ 7 zero bytes`. */
  getTokenIDLSK(): Buffer {
    return lskTokenIDOf(this.settings.ownChainID);
  }

  /** Whether `address` has an account for `tokenID`. */
  userSubstoreExists(context: ReadContext, address: Buffer, tokenID: Buffer): boolean {
    return userStore.has(context.state, userKey(address, tokenID));
  }

  /** The available (unlocked) balance; 0 without an account. */
  getAvailableBalance(context: ReadContext, address: Buffer, tokenID: Buffer): bigint {
    return userStore.get(context.state, userKey(address, tokenID))?.availableBalance ?? 0n;
  }

  /** The amount `module` has locked; 0 without an account or a lock. */
  getLockedAmount(context: ReadContext, address: Buffer, tokenID: Buffer, module: string): bigint {
    const account = userStore.get(context.state, userKey(address, tokenID));
    return account?.lockedBalances.find((locked) => locked.module === module)?.amount ?? 0n;
  }

  /** The amount of a native token escrowed for `escrowChainID`; 0 without an escrow account. */
  getEscrowedAmount(context: ReadContext, escrowChainID: Buffer, tokenID: Buffer): bigint {
    if (!this.isNativeToken(tokenID)) throw new ExecutionError('Only native token can have escrow amount.');
    if (this.settings.ownChainID.equals(escrowChainID)) throw new ExecutionError('Escrow is not defined for own chain.');
    return escrowStore.get(context.state, escrowKey(escrowChainID, tokenID))?.amount ?? 0n;
  }

  /** Whether no supply entry exists for `tokenID` yet. */
  isTokenIDAvailable(context: ReadContext, tokenID: Buffer): boolean {
    return !supplyStore.has(context.state, tokenID);
  }

  /** Creates the supply entry (0) of a new native token and emits `initializeToken`. */
  initializeToken(context: MethodContext, tokenID: Buffer): void {
    if (!this.isNativeToken(tokenID)) {
      initializeTokenEvent.error(context.events, { tokenID }, TokenEventResult.TOKEN_ID_NOT_NATIVE);
      throw new ExecutionError('Only native token can be initialized.');
    }
    if (!this.isTokenIDAvailable(context, tokenID)) {
      initializeTokenEvent.error(context.events, { tokenID }, TokenEventResult.TOKEN_ID_NOT_AVAILABLE);
      throw new ExecutionError('The specified token ID is not available.');
    }
    supplyStore.set(context.state, tokenID, { totalSupply: 0n });
    initializeTokenEvent.log(context.events, { tokenID });
  }

  /**
   * Creates `amount` of a native, initialized token on `address` (creating its account, which
   * charges the initialization fee) and emits `mint`. Amounts ≤ 0 do nothing.
   */
  mint(context: MethodContext, address: Buffer, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const eventData = { address, tokenID, amount };
    if (!this.isNativeToken(tokenID)) {
      mintEvent.error(context.events, eventData, TokenEventResult.MINT_FAIL_NON_NATIVE_TOKEN);
      throw new ExecutionError('Only native token can be minted.');
    }
    const supply = supplyStore.get(context.state, tokenID);
    if (supply === undefined) {
      mintEvent.error(context.events, eventData, TokenEventResult.MINT_FAIL_TOKEN_NOT_INITIALIZED);
      throw new ExecutionError(`TokenID: ${tokenID.toString('hex')} is not initialized.`);
    }
    const tooBig = `TokenID: ${tokenID.toString('hex')} with ${amount.toString()} exceeds maximum range allowed.`;
    if (supply.totalSupply + amount >= UINT64_LIMIT) {
      mintEvent.error(context.events, eventData, TokenEventResult.MINT_FAIL_TOTAL_SUPPLY_TOO_BIG);
      throw new ExecutionError(tooBig);
    }
    if (this.getAvailableBalance(context, address, tokenID) + amount >= UINT64_LIMIT) {
      mintEvent.error(context.events, eventData, TokenEventResult.MINT_FAIL_TOTAL_SUPPLY_TOO_BIG);
      throw new ExecutionError(tooBig);
    }
    const key = userKey(address, tokenID);
    if (!userStore.has(context.state, key)) {
      this.internal.initializeUserAccount(context, address, tokenID);
    }
    const account = userStore.getOrThrow(context.state, key);
    account.availableBalance += amount;
    saveUserAccount(context.state, address, tokenID, account);

    supply.totalSupply += amount;
    supplyStore.set(context.state, tokenID, supply);
    mintEvent.log(context.events, eventData);
  }

  /**
   * Destroys `amount` of the available balance (and of the total supply for a native token) and
   * emits `burn`. Amounts ≤ 0 do nothing.
   */
  burn(context: MethodContext, address: Buffer, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const eventData = { address, tokenID, amount };
    const key = userKey(address, tokenID);
    const account = this.accountOrFail(context, key, () =>
      burnEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE),
    );
    if (account.availableBalance < amount) {
      burnEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
      throw new ExecutionError(insufficientBalanceMessage(address, amount));
    }
    account.availableBalance -= amount;
    // A plain write, as lisk-sdk does here (no locked-balance normalization).
    userStore.set(context.state, key, account);

    if (this.isNativeToken(tokenID)) {
      const supply = supplyStore.getOrThrow(context.state, tokenID);
      supply.totalSupply -= amount;
      supplyStore.set(context.state, tokenID, supply);
    }
    burnEvent.log(context.events, eventData);
  }

  /** Creates an empty account for (address, tokenID) unless one exists; charges the initialization fee. */
  initializeUserAccount(context: MethodContext, address: Buffer, tokenID: Buffer): void {
    if (this.userSubstoreExists(context, address, tokenID)) return;
    this.internal.initializeUserAccount(context, address, tokenID);
  }

  /** Creates an empty escrow account of a native token for `chainID` unless one exists. */
  initializeEscrowAccount(context: MethodContext, chainID: Buffer, tokenID: Buffer): void {
    if (!this.isNativeToken(tokenID)) {
      throw new ExecutionError(`TokenID ${tokenID.toString('hex')} is not native token.`);
    }
    if (this.settings.ownChainID.equals(chainID)) {
      throw new ExecutionError(`Can not initialize escrow account for own chain, ${chainID.toString('hex')}`);
    }
    if (escrowStore.has(context.state, escrowKey(chainID, tokenID))) return;
    this.internal.initializeEscrowAccount(context, chainID, tokenID);
  }

  /**
   * Transfers `amount` from sender to recipient, creating the recipient's account (and charging
   * its initialization fee) when needed. Amounts ≤ 0 do nothing.
   */
  transfer(context: MethodContext, senderAddress: Buffer, recipientAddress: Buffer, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const eventData = { senderAddress, recipientAddress, tokenID, amount };
    const sender = this.accountOrFail(context, userKey(senderAddress, tokenID), () =>
      transferEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE),
    );
    if (sender.availableBalance < amount) {
      transferEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
      throw new ExecutionError(insufficientBalanceMessage(senderAddress, amount));
    }
    if (!userStore.has(context.state, userKey(recipientAddress, tokenID))) {
      this.internal.initializeUserAccount(context, recipientAddress, tokenID);
    }
    this.internal.transfer(context, senderAddress, recipientAddress, tokenID, amount);
  }

  /**
   * Sends `amount` to `recipientAddress` on `receivingChainID` through the interoperability
   * module, escrowing native tokens. Amounts ≤ 0 and negative message fees do nothing.
   */
  transferCrossChain(
    context: MethodContext,
    senderAddress: Buffer,
    receivingChainID: Buffer,
    recipientAddress: Buffer,
    tokenID: Buffer,
    amount: bigint,
    messageFee: bigint,
    data: string,
  ): void {
    if (amount <= 0n) return;
    if (messageFee < 0n) return;
    const eventData = { senderAddress, recipientAddress, tokenID, amount, receivingChainID };
    const ownChainID = this.settings.ownChainID;

    if (ownChainID.equals(receivingChainID)) {
      transferCrossChainEvent.error(context.events, eventData, TokenEventResult.INVALID_RECEIVING_CHAIN);
      throw new ExecutionError('Receiving chain cannot be the sending chain.');
    }
    if (data.length > MAX_DATA_LENGTH) {
      transferCrossChainEvent.error(context.events, eventData, TokenEventResult.DATA_TOO_LONG);
      throw new ExecutionError(`Maximum data allowed is ${MAX_DATA_LENGTH}, but received ${data.length}`);
    }

    const interoperability = this.dependencies.interoperability;
    const messageFeeTokenID = interoperability.getMessageFeeTokenID(context, receivingChainID);
    for (const [checkTokenID, checkAmount] of requiredBalances(tokenID, amount, messageFeeTokenID, messageFee)) {
      if (this.getAvailableBalance(context, senderAddress, checkTokenID) < checkAmount) {
        transferCrossChainEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
        throw new ExecutionError(
          `Sender ${encodeLisk32(senderAddress)} does not have sufficient balance ${checkAmount.toString()} for token ${checkTokenID.toString('hex')}.`,
        );
      }
    }

    const chainOfToken = tokenChainID(tokenID);
    if (!chainOfToken.equals(ownChainID) && !chainOfToken.equals(receivingChainID)) {
      transferCrossChainEvent.error(context.events, eventData, TokenEventResult.INVALID_TOKEN_ID);
      throw new ExecutionError(
        `Invalid token ID ${tokenID.toString('hex')}. Token must be native to either the sending or the receiving chain.`,
      );
    }

    const native = this.isNativeToken(tokenID);
    if (native && !escrowStore.has(context.state, escrowKey(receivingChainID, tokenID))) {
      this.internal.initializeEscrowAccount(context, receivingChainID, tokenID);
    }

    const senderKey = userKey(senderAddress, tokenID);
    const sender = userStore.getOrThrow(context.state, senderKey);
    sender.availableBalance -= amount;
    userStore.set(context.state, senderKey, sender);
    if (native) addEscrowAmount(context, receivingChainID, tokenID, amount);

    transferCrossChainEvent.log(context.events, eventData);
    interoperability.send(
      context,
      senderAddress,
      this.moduleName,
      CROSS_CHAIN_COMMAND_NAME_TRANSFER,
      receivingChainID,
      messageFee,
      codec.encode(crossChainTransferMessageParamsSchema, { tokenID, amount, senderAddress, recipientAddress, data }),
    );
  }

  /** Moves `amount` from the available balance to `module`'s locked balance and emits `lock`. */
  lock(context: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const eventData = { address, module, tokenID, amount };
    const account = this.accountOrFail(context, userKey(address, tokenID), () =>
      lockEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE),
    );
    if (account.availableBalance < amount) {
      lockEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
      throw new ExecutionError(insufficientBalanceMessage(address, amount));
    }
    account.availableBalance -= amount;
    const existing = account.lockedBalances.find((locked) => locked.module === module);
    if (existing !== undefined) existing.amount += amount;
    else account.lockedBalances.push({ module, amount });
    saveUserAccount(context.state, address, tokenID, account);
    lockEvent.log(context.events, eventData);
  }

  /** Moves `amount` from `module`'s locked balance back to the available balance and emits `unlock`. */
  unlock(context: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void {
    if (amount <= 0n) return;
    const eventData = { address, module, tokenID, amount };
    const account = this.accountOrFail(context, userKey(address, tokenID), () =>
      unlockEvent.error(context.events, eventData, TokenEventResult.FAIL_INSUFFICIENT_BALANCE),
    );
    const locked = account.lockedBalances.find((entry) => entry.module === module);
    if (locked === undefined) {
      unlockEvent.error(context.events, eventData, TokenEventResult.INSUFFICIENT_LOCKED_AMOUNT);
      throw new ExecutionError(`Address ${encodeLisk32(address)} does not have locked balance for module ${module}`);
    }
    if (locked.amount < amount) {
      unlockEvent.error(context.events, eventData, TokenEventResult.INSUFFICIENT_LOCKED_AMOUNT);
      throw new ExecutionError(
        `Address ${encodeLisk32(address)} does not have sufficient locked balance for amount ${amount.toString()} for module ${module}`,
      );
    }
    locked.amount -= amount;
    account.availableBalance += amount;
    saveUserAccount(context.state, address, tokenID, account);
    unlockEvent.log(context.events, eventData);
  }

  /** Pays a cross-chain message fee from `payFromAddress`, escrowing it when the fee token is native. */
  payMessageFee(context: MethodContext, payFromAddress: Buffer, receivingChainID: Buffer, fee: bigint): void {
    if (fee < 0n) throw new ExecutionError('Invalid Message Fee');
    const messageFeeTokenID = this.dependencies.interoperability.getMessageFeeTokenID(context, receivingChainID);
    const account = userStore.getOrThrow(context.state, userKey(payFromAddress, messageFeeTokenID));
    if (account.availableBalance < fee) {
      throw new ExecutionError(
        `Address ${encodeLisk32(payFromAddress)} does not have sufficient balance ${account.availableBalance.toString()} to pay ${fee.toString()}`,
      );
    }
    account.availableBalance -= fee;
    saveUserAccount(context.state, payFromAddress, messageFeeTokenID, account);
    if (this.isNativeToken(messageFeeTokenID)) addEscrowAmount(context, receivingChainID, messageFeeTokenID, fee);
  }

  /** Whether this chain accepts `tokenID`. */
  isTokenSupported(context: ReadContext, tokenID: Buffer): boolean {
    return isTokenSupported(context.state, tokenID, this.settings.ownChainID);
  }

  /** Supports every token of every chain and emits `allTokensSupported`. */
  supportAllTokens(context: MethodContext): void {
    supportAllTokensInStore(context.state);
    allTokensSupportedEvent.emit(context.events, {});
  }

  /**
   * Removes every per-chain support entry and emits `allTokensSupportRemoved`. As in lisk-sdk,
   * the "all tokens supported" entry itself is not removed.
   */
  removeAllTokensSupport(context: MethodContext): void {
    removeAllChainSupport(context.state);
    allTokensSupportRemovedEvent.emit(context.events, {});
  }

  /** Supports every token of `chainID` (no-op when all tokens or own chain) and emits `allTokensFromChainSupported`. */
  supportAllTokensFromChainID(context: MethodContext, chainID: Buffer): void {
    if (supportedTokensStore.has(context.state, ALL_SUPPORTED_TOKENS_KEY)) return;
    if (chainID.equals(this.settings.ownChainID)) return;
    supportedTokensStore.set(context.state, chainID, { supportedTokenIDs: [] });
    allTokensFromChainSupportedEvent.emit(context.events, { chainID }, [chainID]);
  }

  /** Removes the support entry of `chainID` and emits `allTokensFromChainSupportRemoved`. */
  removeAllTokensSupportFromChainID(context: MethodContext, chainID: Buffer): void {
    if (supportedTokensStore.has(context.state, ALL_SUPPORTED_TOKENS_KEY)) {
      throw new ExecutionError('Invalid operation. All tokens from all chains are supported.');
    }
    if (chainID.equals(this.settings.ownChainID)) {
      throw new ExecutionError('Invalid operation. All tokens from all the specified chain should be supported.');
    }
    if (!supportedTokensStore.has(context.state, chainID)) return;
    supportedTokensStore.del(context.state, chainID);
    allTokensFromChainSupportRemovedEvent.emit(context.events, { chainID }, [chainID]);
  }

  /** Adds `tokenID` to the supported tokens and emits `tokenIDSupported` (always, as lisk-sdk). */
  supportTokenID(context: MethodContext, tokenID: Buffer): void {
    supportTokenInStore(context.state, tokenID, this.settings.ownChainID);
    tokenIDSupportedEvent.emit(context.events, { tokenID }, [tokenID]);
  }

  /**
   * Removes support for one token and emits `tokenIDSupportRemoved`.
   *
   * lisk-sdk 6.1 looks the token up with `Array.prototype.indexOf`, which compares Buffer
   * objects by identity; the list is freshly decoded from the store, so the token is never
   * found and the stored list is never changed. Replaying its chains requires the same
   * behaviour: only the checks run and the event is emitted.
   */
  removeSupport(context: MethodContext, tokenID: Buffer): void {
    const chainID = tokenChainID(tokenID);
    if (supportedTokensStore.has(context.state, ALL_SUPPORTED_TOKENS_KEY)) {
      throw new ExecutionError('All tokens are supported.');
    }
    if (tokenID.equals(this.getTokenIDLSK()) || chainID.equals(this.settings.ownChainID)) {
      throw new ExecutionError('Cannot remove support for the specified token.');
    }
    const entry = supportedTokensStore.get(context.state, chainID);
    if (entry !== undefined && entry.supportedTokenIDs.length === 0) {
      throw new ExecutionError('All tokens from the specified chain are supported.');
    }
    tokenIDSupportRemovedEvent.emit(context.events, { tokenID }, [tokenID]);
  }

  /** Every supply entry in token ID order. */
  getTotalSupply(context: ReadContext): { totalSupply: { tokenID: Buffer; totalSupply: bigint }[] } {
    return {
      totalSupply: supplyStore
        .iterate(context.state, TOKEN_ID_RANGE)
        .map(({ key, value }) => ({ tokenID: key, totalSupply: value.totalSupply })),
    };
  }

  /** Whether an escrow account of `tokenID` for `chainID` exists. */
  escrowSubstoreExists(context: ReadContext, chainID: Buffer, tokenID: Buffer): boolean {
    return escrowStore.has(context.state, escrowKey(chainID, tokenID));
  }

  /** Reads an account that must exist; when it does not, emits the caller's error event and throws NotFoundError. */
  private accountOrFail(context: MethodContext, key: Buffer, emitError: () => void) {
    const account = userStore.get(context.state, key);
    if (account === undefined) {
      emitError();
      return userStore.getOrThrow(context.state, key);
    }
    return account;
  }
}

/**
 * The balances a cross-chain transfer needs per token: the amount of `tokenID` plus the message
 * fee of `messageFeeTokenID`, summed when both are the same token (insertion order as lisk-sdk).
 */
function requiredBalances(tokenID: Buffer, amount: bigint, messageFeeTokenID: Buffer, messageFee: bigint): [Buffer, bigint][] {
  if (tokenID.equals(messageFeeTokenID)) return [[tokenID, amount + messageFee]];
  return [
    [tokenID, amount],
    [messageFeeTokenID, messageFee],
  ];
}
