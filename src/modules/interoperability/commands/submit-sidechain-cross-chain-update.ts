/**
 * submitSidechainCrossChainUpdate (LIP 0053 "Sidechain cross-chain update"; lisk-sdk
 * sidechain/commands/submit_sidechain_cross_chain_update.ts): the mainchain's certificate,
 * validators update and messages, every message applied on this sidechain.
 */
import type { Command, CommandExecuteContext, CommandVerifyContext, VerificationResult } from '../../base/index.js';
import { CrossChainUpdateCommand } from '../ccu/cross-chain-update.js';
import type { CrossChainUpdateParams } from '../ccu/params.js';

export class SubmitSidechainCrossChainUpdateCommand extends CrossChainUpdateCommand implements Command<CrossChainUpdateParams> {
  readonly name = 'submitSidechainCrossChainUpdate';

  verify(ctx: CommandVerifyContext<CrossChainUpdateParams>): VerificationResult {
    return this.verificationOf(() => this.verifyCommon(ctx));
  }

  async execute(ctx: CommandExecuteContext<CrossChainUpdateParams>): Promise<void> {
    this.verifySignatureAndOutboxRoot(ctx);
    const ccms = this.decodeMessages(ctx, false);
    if (ccms === undefined) return;
    await this.processMessages(ctx, ccms, (ccmContext) => this.processor.apply(ccmContext));
    this.afterMessages(ctx);
  }
}
