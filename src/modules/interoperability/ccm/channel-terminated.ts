/**
 * The `channelTerminated` cross-chain command (LIP 0049 "Channel terminated message"; lisk-sdk
 * base_cc_commands/channel_terminated.ts): the partner chain closed the channel, so it is
 * terminated here too (unless it already is, or the message is a bounce).
 */
import type { CrossChainCommand, CrossChainMessageContext } from '../../base/index.js';
import { CCM_STATUS_OK, CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED } from '../constants.js';
import { emptySchema } from '../events.js';
import { terminatedStateStore } from '../stores.js';
import { createTerminatedStateAccount } from '../terminated-state.js';

export class ChannelTerminatedCrossChainCommand implements CrossChainCommand<Record<string, never>> {
  readonly name = CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED;
  readonly schema = emptySchema;

  execute(ctx: CrossChainMessageContext): void {
    if (ctx.ccm.status !== CCM_STATUS_OK) return;
    if (terminatedStateStore.has(ctx.state, ctx.ccm.sendingChainID)) return;
    createTerminatedStateAccount(ctx, ctx.ccm.sendingChainID);
  }
}
