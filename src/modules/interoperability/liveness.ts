/** Chain liveness on the mainchain (LIP 0045 isLive; lisk-sdk MainchainInteroperabilityInternalMethod.isLive). */
import type { ReadContext } from '../base/index.js';
import { ChainStatus, EMPTY_BYTES, LIVENESS_LIMIT } from './constants.js';
import { chainAccountStore, ownChainAccountStore } from './stores.js';

/**
 * The own chain is always live; an unknown or terminated chain never is; an active chain is live
 * while its last certificate is at most LIVENESS_LIMIT seconds older than `timestamp`; a chain
 * that is only registered is live. Without a timestamp the age test is skipped (lisk-sdk's
 * arithmetic on `undefined` gives the same).
 */
export function isLive(ctx: ReadContext, chainID: Buffer, timestamp?: number): boolean {
  const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
  if (chainID.equals(ownChainAccount.chainID)) return true;

  const chainAccount = chainAccountStore.get(ctx.state, chainID);
  if (chainAccount === undefined) return false;
  if (chainAccount.status === ChainStatus.TERMINATED) return false;
  if (
    chainAccount.status === ChainStatus.ACTIVE &&
    timestamp !== undefined &&
    timestamp - chainAccount.lastCertificate.timestamp > LIVENESS_LIMIT
  ) {
    return false;
  }
  return true;
}
