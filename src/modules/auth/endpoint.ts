/**
 * RPC endpoints of the auth module (`auth_*`; LIP 0041 "Endpoints for Off-Chain Services",
 * lisk-sdk auth/endpoint.ts): request schemas, JSON answers and error cases as lisk-sdk.
 */
import { Transaction } from '../../chain/transaction.js';
import { validationErrors } from '../../codec/index.js';
import { addressFromPublicKey, decodeLisk32, MESSAGE_TAG_MULTISIG_REG } from '../../crypto/index.js';
import { InvalidParamsError } from '../../errors.js';
import { VerifyStatus, type EndpointContext, type EndpointHandler } from '../base/index.js';
import { nonceStatus } from './nonce.js';
import {
  addressRequestSchema,
  multisigRegMsgSchema,
  multiSigRegMsgTagSchema,
  sortMultisignatureGroupRequestSchema,
  sortMultisignatureGroupResponseSchema,
  transactionRequestSchema,
  verifyResultSchema,
} from './schemas.js';
import { authAccountSchema, type AuthAccount, type AuthAccountStore } from './stores.js';
import { checkTransactionSignatures } from './transaction-signatures.js';

export interface AuthAccountJSON {
  nonce: string;
  numberOfSignatures: number;
  mandatoryKeys: string[];
  optionalKeys: string[];
}

export interface KeySignaturePair {
  publicKey: string;
  signature: string;
}

export interface SortedMultisignatureGroup {
  mandatoryKeys: string[];
  optionalKeys: string[];
  signatures: string[];
}

const EVEN_LENGTH_HEX = /^([0-9a-f]{2})*$/i;

/** lisk-sdk getTransactionFromParameter: hex → decoded and statically valid transaction. */
function transactionFromParameter(value: unknown): Transaction {
  if (typeof value !== 'string' || !EVEN_LENGTH_HEX.test(value)) {
    throw new InvalidParamsError('Transaction parameter must be a string.');
  }
  try {
    const transaction = Transaction.fromBytes(Buffer.from(value, 'hex'));
    transaction.validate();
    return transaction;
  } catch (error) {
    throw new InvalidParamsError(`Invalid transaction: ${(error as Error).message}`);
  }
}

function addressFromParameter(value: unknown): Buffer {
  if (typeof value !== 'string') throw new InvalidParamsError('Invalid address format.');
  try {
    return decodeLisk32(value);
  } catch (error) {
    throw new InvalidParamsError((error as Error).message);
  }
}

/** lisk-sdk validates this request itself too, so direct callers get the same errors. */
function sortRequest(params: Record<string, unknown>): { mandatory: KeySignaturePair[]; optional: KeySignaturePair[] } {
  const problems = validationErrors(sortMultisignatureGroupRequestSchema, params);
  if (problems.length > 0) throw new InvalidParamsError(problems.join('; '));
  // The schema just checked both lists and their members.
  return { mandatory: params.mandatory as KeySignaturePair[], optional: params.optional as KeySignaturePair[] };
}

/**
 * lisk-sdk orders members by their hex public key as strings, with a comparator that never
 * answers "equal"; reproducing it keeps even duplicate keys in lisk-sdk's order.
 */
function byPublicKey(a: KeySignaturePair, b: KeySignaturePair): number {
  return a.publicKey < b.publicKey ? -1 : 1;
}

/** isValidNonce and isValidSignature: `{verified}` of a check of the transaction param against its sender's account. */
function transactionCheckEndpoint(
  accounts: AuthAccountStore,
  check: (transaction: Transaction, account: AuthAccount, context: EndpointContext) => boolean,
): EndpointHandler {
  return {
    request: transactionRequestSchema,
    response: verifyResultSchema,
    handle(context: EndpointContext): { verified: boolean } {
      const transaction = transactionFromParameter(context.params.transaction);
      const account = accounts.getOrDefault(context.state, addressFromPublicKey(transaction.senderPublicKey));
      return { verified: check(transaction, account, context) };
    },
  };
}

/** The auth endpoints, in lisk-sdk's metadata order. */
export function createAuthEndpoints(accounts: AuthAccountStore): Record<string, EndpointHandler> {
  return {
    getAuthAccount: {
      request: addressRequestSchema,
      response: authAccountSchema,
      handle(context: EndpointContext): AuthAccountJSON {
        const account = accounts.getOrDefault(context.state, addressFromParameter(context.params.address));
        return {
          nonce: account.nonce.toString(),
          numberOfSignatures: account.numberOfSignatures,
          mandatoryKeys: account.mandatoryKeys.map((key) => key.toString('hex')),
          optionalKeys: account.optionalKeys.map((key) => key.toString('hex')),
        };
      },
    },
    isValidNonce: transactionCheckEndpoint(
      accounts,
      (transaction, account) => nonceStatus(transaction.nonce, account.nonce) === VerifyStatus.OK,
    ),
    isValidSignature: transactionCheckEndpoint(
      accounts,
      (transaction, account, context) => checkTransactionSignatures(transaction, context.chainID, account) === undefined,
    ),
    getMultiSigRegMsgSchema: {
      response: multisigRegMsgSchema,
      handle(): { schema: typeof multisigRegMsgSchema } {
        return { schema: multisigRegMsgSchema };
      },
    },
    sortMultisignatureGroup: {
      request: sortMultisignatureGroupRequestSchema,
      response: sortMultisignatureGroupResponseSchema,
      handle(context: EndpointContext): SortedMultisignatureGroup {
        const request = sortRequest(context.params);
        const mandatory = [...request.mandatory].sort(byPublicKey);
        const optional = [...request.optional].sort(byPublicKey);
        return {
          mandatoryKeys: mandatory.map((pair) => pair.publicKey),
          optionalKeys: optional.map((pair) => pair.publicKey),
          signatures: [...mandatory, ...optional].map((pair) => pair.signature),
        };
      },
    },
    getMultiSigRegMsgTag: {
      response: multiSigRegMsgTagSchema,
      handle(): { tag: string } {
        return { tag: MESSAGE_TAG_MULTISIG_REG };
      },
    },
  };
}
