/**
 * registerMainchain (LIP 0043 "Mainchain registration command"; lisk-sdk
 * sidechain/commands/register_mainchain.ts): run once on a sidechain, after the mainchain
 * registered it. The sidechain's current validators sign, with tag LSK_CRM_, what the sidechain
 * accepts as the mainchain's certifying validators; their weighted aggregate signature must reach
 * the sidechain's certificate threshold. Then the mainchain's account, channel, validators and
 * outbox root are created, the own chain account is named, and the `registration` CCM goes out.
 */
import { codec, objectSchema, type Schema } from '../../../codec/index.js';
import { verifyWeightedAggSig } from '../../../crypto/bls-aggregate-signature.js';
import { BLS_SIGNATURE_LENGTH } from '../../../crypto/bls.js';
import { MESSAGE_TAG_CHAIN_REG } from '../../../crypto/tags.js';
import { ExecutionError } from '../../../errors.js';
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type ReadContext,
  type VerificationResult,
} from '../../base/index.js';
import { CHAIN_ID_LENGTH, CHAIN_NAME_MAINCHAIN, MAX_CHAIN_NAME_LENGTH, MAX_UINT64, MIN_CHAIN_NAME_LENGTH } from '../constants.js';
import { chainAccountUpdatedEvent, invalidRegistrationSignatureEvent } from '../events.js';
import { activeValidatorsArray } from '../schemas.js';
import { chainAccountStore } from '../stores.js';
import { type PartnerChain, sendRegistrationMessage, storePartnerChain } from '../partner-chain.js';
import type { ActiveValidator } from '../types.js';
import { getMainchainID, getTokenIDLSK, invalidNameMessage, isValidChainName } from '../utils.js';

/** LIP 0043: the mainchain has at most this many active validators. */
export const NUMBER_ACTIVE_VALIDATORS_MAINCHAIN = 101;

export interface MainchainRegistrationParams {
  ownChainID: Buffer;
  ownName: string;
  mainchainValidators: ActiveValidator[];
  mainchainCertificateThreshold: bigint;
  signature: Buffer;
  aggregationBits: Buffer;
}

const signedMembers = {
  ownChainID: { dataType: 'bytes', fieldNumber: 1, minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH },
  ownName: { dataType: 'string', fieldNumber: 2, minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH },
  mainchainValidators: { ...activeValidatorsArray, fieldNumber: 3, maxItems: NUMBER_ACTIVE_VALIDATORS_MAINCHAIN },
  mainchainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
} as const;

/** The params of registerMainchain, as lisk-sdk names and orders them. */
export const mainchainRegistrationParamsSchema: Schema = objectSchema('/modules/interoperability/sidechain/mainchainRegistration', {
  ...signedMembers,
  signature: { dataType: 'bytes', fieldNumber: 5, minLength: BLS_SIGNATURE_LENGTH, maxLength: BLS_SIGNATURE_LENGTH },
  aggregationBits: { dataType: 'bytes', fieldNumber: 6 },
});

/** What the sidechain validators sign: the params without the signature and its bitmap. */
export const registrationSignatureMessageSchema: Schema = objectSchema(
  '/modules/interoperability/sidechain/registrationSignatureMessage',
  signedMembers,
);

/** What registerMainchain reads from the validators module: the sidechain's current BFT set. */
export interface RegisterMainchainValidatorsMethod {
  getValidatorsParams(ctx: ReadContext): {
    readonly certificateThreshold: bigint;
    readonly validators: readonly { readonly blsKey: Buffer; readonly bftWeight: bigint }[];
  };
}

export class RegisterMainchainCommand implements Command<MainchainRegistrationParams> {
  readonly name = 'registerMainchain';
  readonly schema = mainchainRegistrationParamsSchema;

  constructor(private readonly validators: RegisterMainchainValidatorsMethod) {}

  /** LIP 0043 checks in lisk-sdk's order; params are already schema-valid. */
  verify(context: CommandVerifyContext<MainchainRegistrationParams>): VerificationResult {
    const { ownChainID, ownName, mainchainValidators, mainchainCertificateThreshold } = context.params;
    if (chainAccountStore.has(context.state, getMainchainID(context.chainID))) {
      return verifyFail('Mainchain has already been registered.');
    }
    if (!ownChainID.equals(context.chainID)) return verifyFail('Invalid ownChainID property.');
    if (!isValidChainName(ownName)) return verifyFail(invalidNameMessage('ownName'));

    let totalWeight = 0n;
    for (let i = 0; i < mainchainValidators.length; i += 1) {
      const validator = mainchainValidators[i]!;
      const next = mainchainValidators[i + 1];
      if (next !== undefined && validator.blsKey.compare(next.blsKey) >= 0) {
        return verifyFail('Validators blsKeys must be unique and lexicographically ordered.');
      }
      if (validator.bftWeight === 0n) return verifyFail('Validator bft weight must be positive integer.');
      totalWeight += validator.bftWeight;
      if (totalWeight > MAX_UINT64) return verifyFail('Total BFT weight exceeds maximum value.');
    }
    if (mainchainCertificateThreshold < totalWeight / 3n + 1n) return verifyFail('Certificate threshold is too small.');
    if (mainchainCertificateThreshold > totalWeight) return verifyFail('Certificate threshold is too large.');
    return VERIFY_OK;
  }

  /** The signature check, then state writes, events and the registration CCM, in lisk-sdk's order. */
  execute(context: CommandExecuteContext<MainchainRegistrationParams>): void {
    const { ownChainID, ownName, mainchainValidators, mainchainCertificateThreshold } = context.params;
    if (!this.signedBySidechainValidators(context)) {
      // Kept although the transaction fails, so the failed attempt stays visible.
      invalidRegistrationSignatureEvent.emit(context.events, {}, [ownChainID], true);
      throw new ExecutionError('Invalid signature property.');
    }

    const partner: PartnerChain = {
      chainID: getMainchainID(context.chainID),
      name: CHAIN_NAME_MAINCHAIN,
      activeValidators: mainchainValidators,
      certificateThreshold: mainchainCertificateThreshold,
      messageFeeTokenID: getTokenIDLSK(context.chainID),
    };
    const mainchainAccount = storePartnerChain(context, partner);
    chainAccountUpdatedEvent.emit(context.events, mainchainAccount, [partner.chainID]);
    // The own chain account is named here; its nonce starts at 0 with this first message.
    sendRegistrationMessage(context, { name: ownName, chainID: ownChainID, nonce: 0n }, partner);
  }

  /**
   * LIP 0043: the sidechain's validators with a positive BFT weight, ordered by BLS key, signed the
   * registration message with weights reaching the certificate threshold.
   */
  private signedBySidechainValidators(context: CommandExecuteContext<MainchainRegistrationParams>): boolean {
    const { ownChainID, ownName, mainchainValidators, mainchainCertificateThreshold, aggregationBits, signature } = context.params;
    const { validators, certificateThreshold } = this.validators.getValidatorsParams(context);
    const active = validators.filter((validator) => validator.bftWeight > 0n).sort((a, b) => a.blsKey.compare(b.blsKey));
    const message = codec.encode(registrationSignatureMessageSchema, {
      ownChainID,
      ownName,
      mainchainValidators,
      mainchainCertificateThreshold,
    });
    return verifyWeightedAggSig(
      active.map((validator) => validator.blsKey),
      aggregationBits,
      signature,
      MESSAGE_TAG_CHAIN_REG,
      ownChainID,
      message,
      active.map((validator) => validator.bftWeight),
      certificateThreshold,
    );
  }
}
