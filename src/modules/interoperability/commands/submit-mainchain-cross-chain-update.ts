/**
 * submitMainchainCrossChainUpdate (LIP 0053 "Mainchain cross-chain update"; lisk-sdk
 * mainchain/commands/submit_mainchain_cross_chain_update.ts): a sidechain's certificate, validators
 * update and messages. Messages for the mainchain are applied, the others forwarded.
 */
import type { CommandExecuteContext, CommandVerifyContext, Command, VerificationResult } from '../../base/index.js';
import { ChainStatus } from '../constants.js';
import { verifyLivenessConditionForRegisteredChains } from '../ccu/certificate.js';
import { CrossChainUpdateCommand } from '../ccu/cross-chain-update.js';
import { isInboxUpdateEmpty, type CrossChainUpdateParams } from '../ccu/params.js';
import { chainAccountStore } from '../stores.js';
import { getMainchainID } from '../utils.js';

export class SubmitMainchainCrossChainUpdateCommand extends CrossChainUpdateCommand implements Command<CrossChainUpdateParams> {
  readonly name = 'submitMainchainCrossChainUpdate';

  verify(ctx: CommandVerifyContext<CrossChainUpdateParams>): VerificationResult {
    return this.verificationOf(() => {
      this.verifyCommon(ctx);
      const { params } = ctx;
      // Only the first CCU with messages from a chain still REGISTERED has to be recent.
      const sendingChainAccount = chainAccountStore.getOrThrow(ctx.state, params.sendingChainID);
      if (sendingChainAccount.status === ChainStatus.REGISTERED && !isInboxUpdateEmpty(params.inboxUpdate)) {
        verifyLivenessConditionForRegisteredChains(ctx.header.timestamp, params.certificate);
      }
    });
  }

  async execute(ctx: CommandExecuteContext<CrossChainUpdateParams>): Promise<void> {
    this.verifySignatureAndOutboxRoot(ctx);
    const ccms = this.decodeMessages(ctx, true);
    if (ccms === undefined) return;
    const mainchainID = getMainchainID(ctx.chainID);
    await this.processMessages(ctx, ccms, (ccmContext) =>
      ccmContext.ccm.receivingChainID.equals(mainchainID) ? this.processor.apply(ccmContext) : this.processor.forward(ccmContext),
    );
    this.afterMessages(ctx);
  }
}
