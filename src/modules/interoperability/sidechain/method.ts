/**
 * The methods other modules call on a sidechain's interoperability module (lisk-sdk
 * sidechain/method.ts): the mainchain's, except which channels count as active.
 */
import type { ReadContext } from '../../base/index.js';
import { ChainStatus } from '../constants.js';
import { InteroperabilityMethod } from '../method.js';
import { chainAccountStore, terminatedStateStore } from '../stores.js';
import { getMainchainID } from '../utils.js';

export class SidechainInteroperabilityMethod extends InteroperabilityMethod {
  /**
   * A sidechain has accounts only for its direct partners: an unknown chain is reached through
   * the mainchain, so its channel is active while the mainchain's is and it is not terminated.
   * Liveness by timestamp is the mainchain's business, so `timestamp` is not used.
   */
  override isChannelActive(ctx: ReadContext, chainID: Buffer, _timestamp?: number): boolean {
    if (chainID.equals(this.getOwnChainAccount(ctx).chainID)) return false;
    const chainAccount = chainAccountStore.get(ctx.state, chainID);
    if (chainAccount !== undefined) return chainAccount.status === ChainStatus.ACTIVE;
    const mainchainAccount = chainAccountStore.get(ctx.state, getMainchainID(chainID));
    if (mainchainAccount?.status !== ChainStatus.ACTIVE) return false;
    return !terminatedStateStore.has(ctx.state, chainID);
  }
}
