/**
 * Chain liveness (LIP 0045 isLive; lisk-sdk MainchainInteroperabilityInternalMethod.isLive and
 * SidechainInteroperabilityInternalMethod.isLive). The own chain account tells which rule applies.
 */
import type { ReadContext } from '../base/index.js';
import { ChainStatus, EMPTY_BYTES, LIVENESS_LIMIT } from './constants.js';
import { chainAccountStore, ownChainAccountStore, terminatedStateStore } from './stores.js';
import { getMainchainID } from './utils.js';

/**
 * The own chain is always live; an unknown or terminated chain never is; an active chain is live
 * while its last certificate is at most LIVENESS_LIMIT seconds older than `timestamp`; a chain
 * that is only registered is live (on a sidechain see isLiveFromSidechain). Without a timestamp the age test is skipped (lisk-sdk's
 * arithmetic on `undefined` gives the same).
 */
export function isLive(ctx: ReadContext, chainID: Buffer, timestamp?: number): boolean {
  const ownChainAccount = ownChainAccountStore.getOrThrow(ctx.state, EMPTY_BYTES);
  if (chainID.equals(ownChainAccount.chainID)) return true;
  if (!ownChainAccount.chainID.equals(getMainchainID(ownChainAccount.chainID))) return isLiveFromSidechain(ctx, chainID);

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

/**
 * On a sidechain the mainchain certifies liveness, so only termination counts: a chain is live
 * unless its account says terminated or a terminated state account exists for it (chains reached
 * through the mainchain have neither).
 */
function isLiveFromSidechain(ctx: ReadContext, chainID: Buffer): boolean {
  if (chainAccountStore.get(ctx.state, chainID)?.status === ChainStatus.TERMINATED) return false;
  return !terminatedStateStore.has(ctx.state, chainID);
}
