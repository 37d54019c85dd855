/**
 * registerSidechain (LIP 0043 "Sidechain registration command"; lisk-sdk
 * mainchain/commands/register_sidechain.ts): creates the sidechain's account, channel,
 * validators, outbox root and name entry, charges the registration fee and sends the
 * `registration` CCM into the new channel.
 */
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import { CHAIN_REGISTRATION_FEE, EMPTY_BYTES, MAX_UINT64 } from '../constants.js';
import type { InteroperabilityDependencies } from '../dependencies.js';
import { chainAccountUpdatedEvent } from '../events.js';
import { sidechainRegistrationParamsSchema } from '../schemas.js';
import { type PartnerChain, sendRegistrationMessage, storePartnerChain } from '../partner-chain.js';
import { chainAccountStore, ownChainAccountStore, registeredNamesStore } from '../stores.js';
import type { SidechainRegistrationParams } from '../types.js';
import { getTokenIDLSK, invalidNameMessage, isValidChainName } from '../utils.js';

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

    const partner: PartnerChain = {
      chainID,
      name,
      activeValidators: sidechainValidators,
      certificateThreshold: sidechainCertificateThreshold,
      messageFeeTokenID: getTokenIDLSK(context.chainID),
    };
    const sidechainAccount = storePartnerChain(context, partner);
    registeredNamesStore.set(state, Buffer.from(name, 'ascii'), { chainID });

    fee.payFee(context, CHAIN_REGISTRATION_FEE);
    token.initializeEscrowAccount(context, chainID, partner.messageFeeTokenID);

    chainAccountUpdatedEvent.emit(context.events, sidechainAccount, [chainID]);
    sendRegistrationMessage(context, ownChainAccountStore.getOrThrow(state, EMPTY_BYTES), partner);
  }
}
