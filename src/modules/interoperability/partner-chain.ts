/**
 * Registering a partner chain (LIP 0043): what the mainchain's registerSidechain and the
 * sidechain's registerMainchain both write and send (lisk-sdk mainchain/commands/register_sidechain.ts
 * and sidechain/commands/register_mainchain.ts).
 */
import { codec } from '../../codec/index.js';
import type { MethodContext } from '../base/index.js';
import {
  CCM_STATUS_OK,
  ChainStatus,
  CROSS_CHAIN_COMMAND_REGISTRATION,
  EMPTY_BYTES,
  EMPTY_HASH,
  INTEROPERABILITY_MODULE_NAME,
  MIN_RETURN_FEE_PER_BYTE_BEDDOWS,
} from './constants.js';
import { ccmSendSuccessEvent } from './events.js';
import { addToOutbox } from './outbox.js';
import { registrationCCMParamsSchema } from './schemas.js';
import { ccmID } from './send.js';
import { chainAccountStore, chainValidatorsStore, channelDataStore, outboxRootStore, ownChainAccountStore } from './stores.js';
import type { ActiveValidator, ChainAccount, CrossChainMessage, OwnChainAccount } from './types.js';
import { computeValidatorsHash } from './utils.js';

export interface PartnerChain {
  readonly chainID: Buffer;
  readonly name: string;
  readonly activeValidators: ActiveValidator[];
  readonly certificateThreshold: bigint;
  /** The fee token of the new channel: the network's LSK. */
  readonly messageFeeTokenID: Buffer;
}

/**
 * Stores the partner's chain account (registered, not yet certified, its validators hash from
 * the given set), an empty channel, its validators and an empty outbox root; returns the account.
 */
export function storePartnerChain(ctx: MethodContext, partner: PartnerChain): ChainAccount {
  const { state } = ctx;
  const account: ChainAccount = {
    name: partner.name,
    lastCertificate: {
      height: 0,
      timestamp: 0,
      stateRoot: EMPTY_HASH,
      validatorsHash: computeValidatorsHash(partner.activeValidators, partner.certificateThreshold),
    },
    status: ChainStatus.REGISTERED,
  };
  chainAccountStore.set(state, partner.chainID, account);
  channelDataStore.set(state, partner.chainID, {
    inbox: { root: EMPTY_HASH, appendPath: [], size: 0 },
    outbox: { root: EMPTY_HASH, appendPath: [], size: 0 },
    partnerChainOutboxRoot: EMPTY_HASH,
    messageFeeTokenID: partner.messageFeeTokenID,
    minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE_BEDDOWS,
  });
  chainValidatorsStore.set(state, partner.chainID, {
    activeValidators: partner.activeValidators,
    certificateThreshold: partner.certificateThreshold,
  });
  outboxRootStore.set(state, partner.chainID, { root: EMPTY_HASH });
  return account;
}

/**
 * Puts the `registration` CCM, which tells the partner how this chain registered it, into the new
 * channel's outbox with the own chain's nonce, stores `ownChainAccount` with the nonce moved on,
 * and emits ccmSendSuccess.
 */
export function sendRegistrationMessage(ctx: MethodContext, ownChainAccount: OwnChainAccount, partner: PartnerChain): void {
  const ccm: CrossChainMessage = {
    nonce: ownChainAccount.nonce,
    module: INTEROPERABILITY_MODULE_NAME,
    crossChainCommand: CROSS_CHAIN_COMMAND_REGISTRATION,
    sendingChainID: ownChainAccount.chainID,
    receivingChainID: partner.chainID,
    fee: 0n,
    status: CCM_STATUS_OK,
    params: codec.encode(registrationCCMParamsSchema, {
      name: partner.name,
      chainID: partner.chainID,
      messageFeeTokenID: partner.messageFeeTokenID,
      minReturnFeePerByte: MIN_RETURN_FEE_PER_BYTE_BEDDOWS,
    }),
  };
  addToOutbox(ctx, partner.chainID, ccm);
  ownChainAccountStore.set(ctx.state, EMPTY_BYTES, { ...ownChainAccount, nonce: ownChainAccount.nonce + 1n });
  ccmSendSuccessEvent.emit(ctx.events, { ccm }, [ownChainAccount.chainID, partner.chainID, ccmID(ccm)]);
}
