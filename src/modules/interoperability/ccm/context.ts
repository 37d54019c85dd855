/** Building the context a cross-chain message is processed in (lisk-sdk: the CCU's context with `ccm` and a child event queue). */
import type { CommandExecuteContext, CrossChainMessageContext } from '../../base/index.js';
import type { CrossChainMessage } from '../types.js';
import { ccmEventTopic } from './codes.js';

/**
 * The message's context inside the transaction `ctx`: the same state and context store, events
 * scoped with `05 ‖ ccmID`, and the transaction's context for hooks that emit with its topic.
 */
export function crossChainMessageContext(
  ctx: CommandExecuteContext<unknown>,
  ccm: CrossChainMessage,
  ccmID: Buffer,
): CrossChainMessageContext {
  const { transaction } = ctx;
  return {
    state: ctx.state,
    events: ctx.events.withDefaultTopic(ccmEventTopic(ccmID)),
    methodContext: ctx,
    contextStore: ctx.contextStore,
    chainID: ctx.chainID,
    logger: ctx.logger,
    header: ctx.header,
    transaction: { senderAddress: transaction.senderAddress(), fee: transaction.fee, params: transaction.params },
    ccm,
  };
}
