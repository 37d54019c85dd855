/** Terminating a chain (LIP 0045 createTerminatedStateAccount; lisk-sdk internal method of the same name). */
import type { MethodContext } from '../base/index.js';
import { ChainStatus, EMPTY_BYTES, EMPTY_HASH } from './constants.js';
import { chainAccountStore, outboxRootStore, ownChainAccountStore, terminatedStateStore } from './stores.js';
import { chainAccountUpdatedEvent, terminatedStateCreatedEvent } from './events.js';
import type { TerminatedStateAccount } from './types.js';
import { getMainchainID } from './utils.js';
import { ExecutionError } from '../../errors.js';

/**
 * Marks a chain terminated and records its terminated state. For a chain with an account, the
 * account's status becomes TERMINATED, its outbox root is removed and the state root defaults
 * to its last certified one. On the mainchain a chain without an account cannot be terminated.
 */
export function createTerminatedStateAccount(ctx: MethodContext, chainID: Buffer, stateRoot: Buffer = EMPTY_HASH): void {
  let terminatedState: TerminatedStateAccount;
  const chainAccount = chainAccountStore.get(ctx.state, chainID);
  if (chainAccount !== undefined) {
    chainAccountStore.set(ctx.state, chainID, { ...chainAccount, status: ChainStatus.TERMINATED });
    // lisk-sdk logs the account as it was before the status change; the event bytes follow it.
    chainAccountUpdatedEvent.emit(ctx.events, chainAccount, [chainID]);
    outboxRootStore.del(ctx.state, chainID);
    terminatedState = {
      stateRoot: stateRoot.equals(EMPTY_HASH) ? chainAccount.lastCertificate.stateRoot : stateRoot,
      mainchainStateRoot: EMPTY_HASH,
      initialized: true,
    };
  } else {
    const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
    const mainchainID = getMainchainID(ownChainAccount.chainID);
    if (ownChainAccount.chainID.equals(mainchainID)) {
      throw new ExecutionError('Chain to be terminated is not valid.');
    }
    const mainchainAccount = chainAccountStore.getOrThrow(ctx.state, mainchainID);
    terminatedState = stateRoot.equals(EMPTY_HASH)
      ? { stateRoot: EMPTY_HASH, mainchainStateRoot: mainchainAccount.lastCertificate.stateRoot, initialized: false }
      : { stateRoot, mainchainStateRoot: EMPTY_HASH, initialized: true };
  }
  terminatedStateStore.set(ctx.state, chainID, terminatedState);
  terminatedStateCreatedEvent.emit(ctx.events, terminatedState, [chainID]);
}
