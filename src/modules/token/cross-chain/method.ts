/**
 * TokenInteroperableMethod: the token module's hooks around every cross-chain message (LIP 0051;
 * lisk-sdk v6.1.0 framework/src/modules/token/cc_method.ts).
 *
 * - verifyCrossChainMessage: a message whose fee is paid in a token of this chain must be covered
 *   by what this chain holds in escrow for the sending chain.
 * - beforeCrossChainCommandExecute: the message fee goes to the relayer (out of that escrow when
 *   the fee token is native), then `beforeCCCExecution`.
 * - beforeCrossChainMessageForwarding (mainchain): the fee (LSK only) moves from the sending
 *   chain's escrow to the receiving chain's, or to the relayer when the message failed.
 * - recover (LIP 0054 state recovery): a user account proven in a terminated chain's state is
 *   paid out of the escrow for that chain.
 *
 * Every event goes to the carrying transaction's queue, as lisk-sdk emits them through
 * `getMethodContext()`: a message context's `methodContext`, a recovery context's own `events`.
 * Failures throw after their non-revertible event.
 */
import { codec, validate } from '../../../codec/index.js';
import type { BeforeCCMForwardingContext, CrossChainMessageContext, CrossChainMethod, RecoverContext } from '../../base/index.js';
import { computeSubstorePrefix } from '../../base/index.js';
import { ccmID } from '../../interoperability/index.js';
import { ADDRESS_LENGTH, TOKEN_ID_LENGTH, TokenEventResult } from '../constants.js';
import type { TokenDependencySlots } from '../dependencies.js';
import { addEscrowAmount, escrowOrEmpty } from '../escrow-account.js';
import { beforeCCCExecutionEvent, beforeCCMForwardingEvent, recoverEvent } from '../events.js';
import type { TokenInternalMethod } from '../internal-method.js';
import { escrowKey, escrowStore, userKey, userStore, userStoreSchema, type UserAccount } from '../stores.js';
import { lskTokenIDOf, tokenChainID } from '../token-id.js';
import { addAvailableBalance } from '../user-account.js';
import { ExecutionError } from '../../../errors.js';

const EMPTY_TOKEN_ID: Buffer = Buffer.alloc(0);
/** The 2-byte substore part of the user store's prefix: the only substore `recover` accepts. */
const USER_SUBSTORE_PREFIX: Buffer = computeSubstorePrefix(userStore.index);

export class TokenCrossChainMethod implements CrossChainMethod {
  constructor(
    private readonly dependencies: TokenDependencySlots,
    private readonly internal: TokenInternalMethod,
  ) {}

  verifyCrossChainMessage(context: CrossChainMessageContext): void {
    const { ccm } = context;
    const tokenID = this.dependencies.interoperability.getMessageFeeTokenIDFromCCM(context.methodContext, ccm);
    if (!tokenChainID(tokenID).equals(context.chainID)) return;
    if (escrowOrEmpty(context.state, ccm.sendingChainID, tokenID).amount < ccm.fee) {
      throw new ExecutionError('Insufficient escrow amount.');
    }
  }

  beforeCrossChainCommandExecute(context: CrossChainMessageContext): void {
    const { ccm, methodContext } = context;
    const relayerAddress = context.transaction.senderAddress;
    const messageFeeTokenID = this.dependencies.interoperability.getMessageFeeTokenIDFromCCM(methodContext, ccm);
    const eventData = { ccmID: ccmID(ccm), messageFeeTokenID, relayerAddress };

    if (tokenChainID(messageFeeTokenID).equals(context.chainID)) {
      const escrow = escrowOrEmpty(methodContext.state, ccm.sendingChainID, messageFeeTokenID);
      if (escrow.amount < ccm.fee) {
        beforeCCCExecutionEvent.error(methodContext.events, eventData, TokenEventResult.INSUFFICIENT_ESCROW_BALANCE);
        throw new ExecutionError('Insufficient balance in the sending chain for the message fee.');
      }
      escrow.amount -= ccm.fee;
      escrowStore.set(methodContext.state, escrowKey(ccm.sendingChainID, messageFeeTokenID), escrow);
    }

    addAvailableBalance(methodContext.state, relayerAddress, messageFeeTokenID, ccm.fee);
    beforeCCCExecutionEvent.log(methodContext.events, eventData);
  }

  beforeCrossChainMessageForwarding(context: BeforeCCMForwardingContext): void {
    const { ccm, methodContext } = context;
    const id = ccmID(ccm);
    const messageFeeTokenID = this.dependencies.interoperability.getMessageFeeTokenIDFromCCM(methodContext, ccm);
    if (!messageFeeTokenID.equals(lskTokenIDOf(context.chainID))) {
      throw new ExecutionError('Message fee token should be LSK.');
    }
    const topics = [ccm.sendingChainID, ccm.receivingChainID];
    const eventData = { ccmID: id, messageFeeTokenID };

    if (ccm.fee > 0n) {
      const sendingEscrow = escrowOrEmpty(methodContext.state, ccm.sendingChainID, messageFeeTokenID);
      if (sendingEscrow.amount < ccm.fee) {
        beforeCCMForwardingEvent.error(methodContext.events, topics, eventData, TokenEventResult.INSUFFICIENT_ESCROW_BALANCE);
        throw new ExecutionError('Insufficient balance in the sending chain for the message fee.');
      }
      sendingEscrow.amount -= ccm.fee;
      escrowStore.set(methodContext.state, escrowKey(ccm.sendingChainID, messageFeeTokenID), sendingEscrow);

      // A message that failed is bounced, not forwarded: its fee goes to the relayer instead.
      if (context.ccmFailed) {
        addAvailableBalance(methodContext.state, context.transaction.senderAddress, messageFeeTokenID, ccm.fee);
      } else {
        addEscrowAmount(methodContext, ccm.receivingChainID, messageFeeTokenID, ccm.fee);
      }
    }

    beforeCCMForwardingEvent.log(methodContext.events, topics, eventData);
  }

  recover(context: RecoverContext): void {
    const { storeKey, terminatedChainID } = context;
    const address = storeKey.subarray(0, ADDRESS_LENGTH);
    const account = context.substorePrefix.equals(USER_SUBSTORE_PREFIX) ? decodeUserAccount(storeKey, context.storeValue) : undefined;
    if (account === undefined) {
      recoverEvent.error(
        context.events,
        [address],
        { terminatedChainID, tokenID: EMPTY_TOKEN_ID, amount: 0n },
        TokenEventResult.RECOVER_FAIL_INVALID_INPUTS,
      );
      throw new ExecutionError('Invalid arguments.');
    }

    const tokenID = storeKey.subarray(ADDRESS_LENGTH, ADDRESS_LENGTH + TOKEN_ID_LENGTH);
    const amount = account.lockedBalances.reduce((sum, locked) => sum + locked.amount, account.availableBalance);
    const escrow = escrowOrEmpty(context.state, terminatedChainID, tokenID);
    if (!tokenChainID(tokenID).equals(context.chainID) || escrow.amount < amount) {
      recoverEvent.error(
        context.events,
        [address],
        { terminatedChainID, tokenID, amount },
        TokenEventResult.RECOVER_FAIL_INSUFFICIENT_ESCROW,
      );
      throw new ExecutionError('Insufficient escrow amount.');
    }
    escrow.amount -= amount;
    escrowStore.set(context.state, escrowKey(terminatedChainID, tokenID), escrow);

    if (!userStore.has(context.state, userKey(address, tokenID))) {
      this.internal.initializeUserAccount(context, address, tokenID);
    }
    addAvailableBalance(context.state, address, tokenID, amount);
    recoverEvent.log(context.events, [address], { terminatedChainID, tokenID, amount });
  }
}

/** A user-store entry proven in a terminated chain's state: its key must be address ‖ tokenID, its value a valid account. */
function decodeUserAccount(storeKey: Buffer, storeValue: Buffer): UserAccount | undefined {
  if (storeKey.length !== ADDRESS_LENGTH + TOKEN_ID_LENGTH) return undefined;
  try {
    const account = codec.decode<UserAccount>(userStoreSchema, storeValue);
    validate(userStoreSchema, account);
    return account;
  } catch {
    return undefined;
  }
}
