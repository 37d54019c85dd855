/**
 * initializeStateRecovery on a sidechain (LIP 0054 "State recovery initialization command";
 * lisk-sdk sidechain/commands/initialize_state_recovery.ts): the account of a terminated (or no
 * longer live) sidechain, proven in the mainchain state root this chain has certified, gives the
 * state root against which that sidechain's entries can then be recovered (recoverState).
 */
import { codec, objectSchema, validate, type Schema } from '../../../codec/index.js';
import { sha256 } from '../../../crypto/sha256.js';
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import { ChainStatus, EMPTY_BYTES, EMPTY_HASH, LIVENESS_LIMIT } from '../constants.js';
import { invalidSMTVerificationEvent } from '../events.js';
import { verifyStateInclusion } from '../state-recovery.js';
import { chainAccountStore, chainDataSchema, ownChainAccountStore, terminatedStateStore } from '../stores.js';
import { createTerminatedStateAccount } from '../terminated-state.js';
import type { ChainAccount } from '../types.js';
import { getMainchainID } from '../utils.js';
import { ExecutionError } from '../../../errors.js';

/** lisk-sdk stateRecoveryInitParamsSchema. */
export const stateRecoveryInitParamsSchema: Schema = objectSchema('/modules/interoperability/mainchain/stateRecoveryInitialization', {
  chainID: { dataType: 'bytes', fieldNumber: 1, minLength: 4, maxLength: 4 },
  sidechainAccount: { dataType: 'bytes', fieldNumber: 2 },
  bitmap: { dataType: 'bytes', fieldNumber: 3 },
  siblingHashes: { type: 'array', fieldNumber: 4, items: { dataType: 'bytes', minLength: 32, maxLength: 32 } },
});

/** Params of initializeStateRecovery (lisk-sdk StateRecoveryInitParams). */
export interface StateRecoveryInitParams {
  chainID: Buffer;
  /** The sidechain's chain account as the mainchain stores it (encoded). */
  sidechainAccount: Buffer;
  bitmap: Buffer;
  siblingHashes: Buffer[];
}

export class InitializeStateRecoveryCommand implements Command<StateRecoveryInitParams> {
  readonly name = 'initializeStateRecovery';
  readonly schema = stateRecoveryInitParamsSchema;

  verify(context: CommandVerifyContext<StateRecoveryInitParams>): VerificationResult {
    const { chainID, sidechainAccount } = context.params;
    const ownChainAccount = ownChainAccountStore.getOrThrow(context.state, EMPTY_BYTES);
    const mainchainID = getMainchainID(ownChainAccount.chainID);
    if (chainID.equals(mainchainID) || chainID.equals(ownChainAccount.chainID)) return verifyFail('Chain ID is not valid.');

    if (terminatedStateStore.get(context.state, chainID)?.initialized === true) {
      return verifyFail('Sidechain is already terminated.');
    }

    // A malformed account throws, as in lisk-sdk; the state machine turns that into a FAIL.
    const account = codec.decode<ChainAccount>(chainDataSchema, sidechainAccount);
    validate(chainDataSchema, account);

    const mainchainAccount = chainAccountStore.getOrThrow(context.state, mainchainID);
    if (account.status === ChainStatus.REGISTERED) return verifyFail('Sidechain has status registered.');
    // Liveness is judged by the mainchain's clock as far as this chain knows it: its last certificate.
    if (
      account.status === ChainStatus.ACTIVE &&
      mainchainAccount.lastCertificate.timestamp - account.lastCertificate.timestamp <= LIVENESS_LIMIT
    ) {
      return verifyFail('Sidechain is still active and obeys the liveness requirement.');
    }
    return VERIFY_OK;
  }

  /**
   * The proof goes against the mainchain state root saved in an uninitialized terminated state
   * account (made when a message to the chain arrived), else against the mainchain's last
   * certified state root. It is checked here rather than in verify because it is costly and the
   * fee must be paid for it.
   */
  execute(context: CommandExecuteContext<StateRecoveryInitParams>): void {
    const { chainID, siblingHashes, bitmap, sidechainAccount } = context.params;
    const query = {
      key: Buffer.concat([chainAccountStore.prefix, sha256(chainID)]),
      value: sha256(sidechainAccount),
      bitmap,
    };

    const terminatedState = terminatedStateStore.get(context.state, chainID);
    let mainchainStateRoot: Buffer;
    // Which root was used, for the error message (its wording, trailing dots included, is lisk-sdk's).
    let against: string;
    if (terminatedState !== undefined) {
      mainchainStateRoot = terminatedState.mainchainStateRoot;
      against = `given chainID: ${chainID.toString('hex')}.`;
    } else {
      const mainchainID = getMainchainID(context.chainID);
      mainchainStateRoot = chainAccountStore.getOrThrow(context.state, mainchainID).lastCertificate.stateRoot;
      against = `mainchainID: ${mainchainID.toString('hex')}`;
    }

    if (!verifyStateInclusion(mainchainStateRoot, [query], siblingHashes)) {
      invalidSMTVerificationEvent.emit(context.events, {});
      throw new ExecutionError(`State recovery initialization proof of inclusion is not valid for ${against}.`);
    }

    const account = codec.decode<ChainAccount>(chainDataSchema, sidechainAccount);
    if (terminatedState !== undefined) {
      // lisk-sdk overwrites the account here without a terminatedStateCreated event.
      terminatedStateStore.set(context.state, chainID, {
        stateRoot: account.lastCertificate.stateRoot,
        mainchainStateRoot: EMPTY_HASH,
        initialized: true,
      });
      return;
    }
    createTerminatedStateAccount(context, chainID, account.lastCertificate.stateRoot);
  }
}
