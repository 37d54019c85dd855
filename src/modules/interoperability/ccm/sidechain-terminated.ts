/**
 * The `sidechainTerminated` cross-chain command of sidechains (LIP 0049 "Sidechain terminated
 * message"; lisk-sdk sidechain/cc_commands/sidechain_terminated.ts): the mainchain reports a
 * terminated sidechain and its last certified state root. lisk-sdk 6.1 defines it but its sidechain
 * module does not register it (see own-commands.ts), so a replayed sidechain never runs it.
 */
import { objectSchema, type Schema } from '../../../codec/index.js';
import { ExecutionError } from '../../../errors.js';
import type { CrossChainCommand, CrossChainCommandExecuteContext, ImmutableCrossChainMessageContext } from '../../base/index.js';
import { CCM_STATUS_OK, CHAIN_ID_LENGTH, EMPTY_HASH, HASH_LENGTH } from '../constants.js';
import { terminatedStateStore } from '../stores.js';
import { createTerminatedStateAccount } from '../terminated-state.js';
import { getMainchainID } from '../utils.js';
import { CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED } from './codes.js';

export const sidechainTerminatedCCMParamsSchema: Schema = objectSchema('/modules/interoperability/ccCommand/sidechainTerminated', {
  chainID: { dataType: 'bytes', fieldNumber: 1, minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH },
  stateRoot: { dataType: 'bytes', fieldNumber: 2, minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
});

interface SidechainTerminatedParams {
  chainID: Buffer;
  stateRoot: Buffer;
}

export class SidechainTerminatedCrossChainCommand implements CrossChainCommand<SidechainTerminatedParams> {
  readonly name = CROSS_CHAIN_COMMAND_SIDECHAIN_TERMINATED;
  readonly schema = sidechainTerminatedCCMParamsSchema;

  verify(ctx: ImmutableCrossChainMessageContext): void {
    if (ctx.ccm.status !== CCM_STATUS_OK) throw new ExecutionError('Sidechain terminated message must have status OK.');
    if (!ctx.ccm.sendingChainID.equals(getMainchainID(ctx.chainID))) {
      throw new ExecutionError('Sidechain terminated message must be sent from the mainchain.');
    }
  }

  /** Records the terminated chain's state root, or fills it in when only the account without it exists. */
  execute(ctx: CrossChainCommandExecuteContext<SidechainTerminatedParams>): void {
    const { chainID, stateRoot } = ctx.params;
    const terminatedState = terminatedStateStore.get(ctx.state, chainID);
    if (terminatedState === undefined) {
      createTerminatedStateAccount(ctx, chainID, stateRoot);
      return;
    }
    if (terminatedState.initialized) return;
    terminatedStateStore.set(ctx.state, chainID, { stateRoot, mainchainStateRoot: EMPTY_HASH, initialized: true });
  }
}
