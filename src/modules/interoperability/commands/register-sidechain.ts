/**
 * registerSidechain (LIP 0043 "Sidechain registration command"; lisk-sdk
 * mainchain/commands/register_sidechain.ts): creates the sidechain's account, channel,
 * validators, outbox root and name entry, charges the registration fee and sends the
 * `registration` CCM into the new channel.
 */
import { codec } from '../../../codec/index.js';
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import {
  CCM_STATUS_OK,
  CHAIN_REGISTRATION_FEE,
  ChainStatus,
  CROSS_CHAIN_COMMAND_REGISTRATION,
  EMPTY_BYTES,
  EMPTY_HASH,
  INTEROPERABILITY_MODULE_NAME,
  MAX_UINT64,
  MIN_RETURN_FEE_PER_BYTE_BEDDOWS,
} from '../constants.js';
import type { InteroperabilityDependencies } from '../dependencies.js';
import { ccmSendSuccessEvent, chainAccountUpdatedEvent } from '../events.js';
import { addToOutbox } from '../outbox.js';
import { registrationCCMParamsSchema, sidechainRegistrationParamsSchema } from '../schemas.js';
import { ccmID } from '../send.js';
import {
  chainAccountStore,
  chainValidatorsStore,
  channelDataStore,
  outboxRootStore,
  ownChainAccountStore,
  registeredNamesStore,
} from '../stores.js';
import type { ChainAccount, CrossChainMessage, SidechainRegistrationParams } from '../types.js';
import { computeValidatorsHash, getTokenIDLSK, invalidNameMessage, isValidChainName } from '../utils.js';

export class RegisterSidechainCommand implements Command<SidechainRegistrationParams> {
  readonly name = 'registerSidechain';
  readonly schema = sidechainRegistrationParamsSchema;

  /** Dependencies are read at call time (the module may receive them after construction). */
  constructor(private readonly deps: () => InteroperabilityDependencies) {}

  /** LIP 0043 checks in lisk-sdk's order; params are already schema-valid. */
  verify(context: CommandVerifyContext<SidechainRegistrationParams>): VerificationResult {
    const { chainID, name, sidechainValidators, sidechainCertificateThreshold } = context.params;

    if (!isValidChainName(name)) return verifyFail(invalidNameMessage());
    if (registeredNamesStore.has(context.state, Buffer.from(name, 'ascii'))) {
      return verifyFail('Name already registered.');
    }
    if (chainAccountStore.has(context.state, chainID)) return verifyFail('Chain ID already registered.');
    if (chainID[0] !== context.chainID[0]) return verifyFail('Chain ID does not match the mainchain network.');
    if (chainID.equals(context.chainID)) return verifyFail('Chain ID cannot be the mainchain chain ID.');

    let totalWeight = 0n;
    for (let i = 0; i < sidechainValidators.length; i += 1) {
      const validator = sidechainValidators[i]!;
      const next = sidechainValidators[i + 1];
      if (next !== undefined && validator.blsKey.compare(next.blsKey) >= 0) {
        return verifyFail('Validators blsKeys must be unique and lexicographically ordered');
      }
      if (validator.bftWeight <= 0n) return verifyFail('Validator bft weight must be greater than 0');
      totalWeight += validator.bftWeight;
    }
    if (totalWeight > MAX_UINT64) return verifyFail(`Validator bft weight must not exceed ${MAX_UINT64}`);
    // The trailing space is lisk-sdk's.
    if (sidechainCertificateThreshold < totalWeight / 3n + 1n) {
      return verifyFail('Certificate threshold below minimum bft weight ');
    }
    if (sidechainCertificateThreshold > totalWeight) return verifyFail('Certificate threshold above maximum bft weight');
    if (context.transaction.fee < CHAIN_REGISTRATION_FEE) return verifyFail('Insufficient transaction fee.');
    return VERIFY_OK;
  }

  /** State writes, fee payments, events and the registration CCM, in lisk-sdk's order. */
  execute(context: CommandExecuteContext<SidechainRegistrationParams>): void {
    const { chainID, name, sidechainValidators, sidechainCertificateThreshold } = context.params;
    const { state } = context;
    const { fee, token } = this.deps();

    const sidechainAccount: ChainAccount = {
      name,
      lastCertificate: {
        height: 0,
        timestamp: 0,
        stateRoot: EMPTY_HASH,
        validatorsHash: computeValidatorsHash(sidechainValidators, sidechainCertificateThreshold),
      },
      status: ChainStatus.REGISTERED,
    };
    chainAccountStore.set(state, chainID, sidechainAccount);

    const mainchainTokenID = getTokenIDLSK(context.chainID);
    channelDataStore.set(state, chainID, {
      inbox: { root: EMPTY_HASH, appendPath: [], size: 0 },
      outbox: { root: EMPTY_HASH, appendPath: [], size: 0 },
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: mainchainTokenID,
      minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE_BEDDOWS,
    });
    chainValidatorsStore.set(state, chainID, {
      activeValidators: sidechainValidators,
      certificateThreshold: sidechainCertificateThreshold,
    });
    outboxRootStore.set(state, chainID, { root: EMPTY_HASH });
    registeredNamesStore.set(state, Buffer.from(name, 'ascii'), { chainID });

    fee.payFee(context, CHAIN_REGISTRATION_FEE);
    token.initializeEscrowAccount(context, chainID, mainchainTokenID);

    chainAccountUpdatedEvent.emit(context.events, sidechainAccount, [chainID]);

    const params = codec.encode(registrationCCMParamsSchema, {
      name,
      chainID,
      messageFeeTokenID: mainchainTokenID,
      minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE_BEDDOWS,
    });
    const ownChainAccount = ownChainAccountStore.getOrThrow(state, EMPTY_BYTES);
    const ccm: CrossChainMessage = {
      nonce: ownChainAccount.nonce,
      module: INTEROPERABILITY_MODULE_NAME,
      crossChainCommand: CROSS_CHAIN_COMMAND_REGISTRATION,
      sendingChainID: ownChainAccount.chainID,
      receivingChainID: chainID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params,
    };
    addToOutbox(context, chainID, ccm);
    ownChainAccountStore.set(state, EMPTY_BYTES, { ...ownChainAccount, nonce: ownChainAccount.nonce + 1n });
    ccmSendSuccessEvent.emit(context.events, { ccm }, [ownChainAccount.chainID, chainID, ccmID(ccm)]);
  }
}
