/**
 * terminateSidechainForLiveness (LIP 0054 "Liveness termination command"; lisk-sdk
 * mainchain/commands/terminate_sidechain_for_liveness.ts): anyone may terminate an active
 * sidechain whose last certificate is older than the liveness limit.
 *
 * lisk-sdk 6.1.0 terminates through terminateChainInternal, which sends the channelTerminated
 * message without a block timestamp; the mainchain refuses such a send ("Timestamp must be
 * provided in mainchain context."), so the command always fails in execution once it passed
 * verification. Chains replayed from lisk-sdk depend on that failure, so it is kept.
 */
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type MethodContext,
  type VerificationResult,
} from '../../base/index.js';
import { ChainStatus } from '../constants.js';
import { isLive } from '../liveness.js';
import { terminateSidechainForLivenessParamsSchema } from '../schemas.js';
import { chainAccountStore } from '../stores.js';

export interface TerminateSidechainForLivenessParams {
  chainID: Buffer;
}

/** The termination step (lisk-sdk terminateChainInternal): InteroperabilityMethod.terminateChain. */
export interface ChainTerminator {
  terminateChain(ctx: MethodContext, chainID: Buffer): void;
}

export class TerminateSidechainForLivenessCommand implements Command<TerminateSidechainForLivenessParams> {
  readonly name = 'terminateSidechainForLiveness';
  readonly schema = terminateSidechainForLivenessParamsSchema;

  constructor(private readonly terminator: ChainTerminator) {}

  verify(context: CommandVerifyContext<TerminateSidechainForLivenessParams>): VerificationResult {
    const { chainID } = context.params;
    const chainAccount = chainAccountStore.get(context.state, chainID);
    if (chainAccount === undefined) return verifyFail('Chain account does not exist.');
    if (chainAccount.status === ChainStatus.TERMINATED) return verifyFail('Sidechain is already terminated.');
    if (isLive(context, chainID, context.header.timestamp)) {
      return verifyFail('Sidechain did not violate the liveness condition.');
    }
    return VERIFY_OK;
  }

  execute(context: CommandExecuteContext<TerminateSidechainForLivenessParams>): void {
    this.terminator.terminateChain(context, context.params.chainID);
  }
}
