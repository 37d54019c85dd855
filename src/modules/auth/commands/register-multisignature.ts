/**
 * `auth:registerMultisignature` (LIP 0041 "Register Multisignature Group";
 * lisk-sdk auth/commands/register_multisignature.ts): turns the sender's account into a
 * multisignature account once every member has signed the registration message.
 */
import { codec } from '../../../codec/index.js';
import { MESSAGE_TAG_MULTISIG_REG, taggedDigest, verifyDigest } from '../../../crypto/index.js';
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../base/index.js';
import { hasDuplicates, isSortedAscending, sharesAnItem } from '../buffer-lists.js';
import { MAX_NUMBER_OF_SIGNATURES, REGISTER_MULTISIGNATURE_COMMAND_NAME } from '../constants.js';
import { invalidSignatureEvent, multisignatureRegistrationEvent } from '../events.js';
import {
  multisigRegMsgSchema,
  registerMultisignatureParamsSchema,
  type MultisigRegMessage,
  type RegisterMultisignatureParams,
} from '../schemas.js';
import type { AuthAccountStore } from '../stores.js';
import { ExecutionError } from '../../../errors.js';

export class RegisterMultisignatureCommand implements Command<RegisterMultisignatureParams> {
  readonly name = REGISTER_MULTISIGNATURE_COMMAND_NAME;
  readonly schema = registerMultisignatureParamsSchema;
  /** From the module config (`maxNumberOfSignatures`), set at init. */
  maxNumberOfSignatures = MAX_NUMBER_OF_SIGNATURES;

  constructor(private readonly accounts: AuthAccountStore) {}

  /** The stateless group rules, checked in lisk-sdk's order (the first broken rule is reported). */
  verify(context: CommandVerifyContext<RegisterMultisignatureParams>): VerificationResult {
    const { mandatoryKeys, optionalKeys, numberOfSignatures, signatures } = context.params;
    const keyCount = mandatoryKeys.length + optionalKeys.length;

    if (hasDuplicates(mandatoryKeys)) return verifyFail('MandatoryKeys contains duplicate public keys.');
    if (hasDuplicates(optionalKeys)) return verifyFail('OptionalKeys contains duplicate public keys.');
    if (keyCount < numberOfSignatures) {
      return verifyFail('The numberOfSignatures is bigger than the count of Mandatory and Optional keys.');
    }
    if (keyCount > this.maxNumberOfSignatures || keyCount < 1) {
      return verifyFail(`The count of Mandatory and Optional keys should be between 1 and ${this.maxNumberOfSignatures}.`);
    }
    if (mandatoryKeys.length > numberOfSignatures) {
      return verifyFail('The numberOfSignatures needs to be equal or bigger than the number of Mandatory keys.');
    }
    if (sharesAnItem(mandatoryKeys, optionalKeys)) {
      return verifyFail('Invalid combination of Mandatory and Optional keys. Repeated keys across Mandatory and Optional were found.');
    }
    if (keyCount !== signatures.length) {
      return verifyFail('The number of mandatory and optional keys should match the number of signatures');
    }
    if (!isSortedAscending(mandatoryKeys)) return verifyFail('Mandatory keys should be sorted lexicographically.');
    if (!isSortedAscending(optionalKeys)) return verifyFail('Optional keys should be sorted lexicographically.');
    return VERIFY_OK;
  }

  /**
   * Checks every member signature over the registration message (tag LSK_RMSG_), in key order;
   * the first invalid one emits a non-revertible `invalidSignature` event and fails the command.
   * Otherwise stores the group and emits `multisignatureRegistration`.
   */
  execute(context: CommandExecuteContext<RegisterMultisignatureParams>): void {
    const { transaction, params } = context;
    const senderAddress = transaction.senderAddress();
    const message: MultisigRegMessage = {
      address: senderAddress,
      nonce: transaction.nonce,
      numberOfSignatures: params.numberOfSignatures,
      mandatoryKeys: params.mandatoryKeys,
      optionalKeys: params.optionalKeys,
    };
    const digest = taggedDigest(MESSAGE_TAG_MULTISIG_REG, context.chainID, codec.encode(multisigRegMsgSchema, message));

    const keys = [...params.mandatoryKeys, ...params.optionalKeys];
    keys.forEach((publicKey, index) => {
      const signature = params.signatures[index];
      if (signature === undefined) {
        // Unreachable after verify (it demands one signature per key); lisk-sdk fails here too.
        throw new ExecutionError(`Missing member signature for public key ${publicKey.toString('hex')}.`);
      }
      if (!verifyDigest(digest, signature, publicKey)) {
        invalidSignatureEvent.emit(
          context.events,
          {
            numberOfSignatures: params.numberOfSignatures,
            mandatoryKeys: params.mandatoryKeys,
            optionalKeys: params.optionalKeys,
            failingPublicKey: publicKey,
            failingSignature: signature,
          },
          [senderAddress],
          true,
        );
        throw new ExecutionError(`Invalid signature for public key ${publicKey.toString('hex')}.`);
      }
    });

    // beforeCommandExecute has just written the account, so it exists (lisk-sdk uses a throwing get).
    const account = this.accounts.getOrThrow(context.state, senderAddress);
    this.accounts.set(context.state, senderAddress, {
      nonce: account.nonce,
      numberOfSignatures: params.numberOfSignatures,
      mandatoryKeys: params.mandatoryKeys,
      optionalKeys: params.optionalKeys,
    });

    multisignatureRegistrationEvent.emit(
      context.events,
      {
        numberOfSignatures: params.numberOfSignatures,
        mandatoryKeys: params.mandatoryKeys,
        optionalKeys: params.optionalKeys,
      },
      [senderAddress],
    );
  }
}
