/**
 * RPC endpoints `interoperability_*` of the mainchain (lisk-sdk BaseInteroperabilityEndpoint and
 * MainchainInteroperabilityEndpoint): JSON in and out, bytes as hex, uint64 as decimal strings.
 * A missing entry is a NotFoundError, malformed params an InvalidParamsError.
 */
import { validatorsHashInputSchema } from '../../chain/validators-hash.js';
import { InvalidParamsError, NotFoundError } from '../../errors.js';
import type { EndpointContext, EndpointHandler, ModuleStore } from '../base/index.js';
import { CHAIN_ID_LENGTH, CHAIN_REGISTRATION_FEE, EMPTY_BYTES, MAX_UINT32, MIN_RETURN_FEE_PER_BYTE_BEDDOWS } from './constants.js';
import {
  allChainAccountsSchema,
  ccmSchema,
  chainIDRequestSchema,
  getCCMSchemaResponseSchema,
  getMinimumMessageFeeResponseSchema,
  getRegistrationFeeResponseSchema,
  isChainIDAvailableResponseSchema,
  isChainNameAvailableRequestSchema,
  isChainNameAvailableResponseSchema,
} from './schemas.js';
import {
  chainAccountStore,
  chainDataSchema,
  chainValidatorsStore,
  channelDataStore,
  channelSchema,
  ownChainAccountSchema,
  ownChainAccountStore,
  registeredNamesStore,
  terminatedOutboxSchema,
  terminatedOutboxStore,
  terminatedStateSchema,
  terminatedStateStore,
} from './stores.js';
import type { ChainAccount, MessageBox } from './types.js';
import { invalidNameMessage, isValidChainName } from './utils.js';

const CHAIN_ID_HEX = /^[0-9a-fA-F]{8}$/;

function chainIDParam(context: EndpointContext): Buffer {
  const { chainID } = context.params;
  if (typeof chainID !== 'string' || !CHAIN_ID_HEX.test(chainID)) {
    throw new InvalidParamsError(`Parameter chainID must be a hex string of ${2 * CHAIN_ID_LENGTH} characters.`);
  }
  return Buffer.from(chainID, 'hex');
}

function chainAccountToJSON(account: ChainAccount) {
  const { lastCertificate } = account;
  return {
    lastCertificate: {
      height: lastCertificate.height,
      timestamp: lastCertificate.timestamp,
      stateRoot: lastCertificate.stateRoot.toString('hex'),
      validatorsHash: lastCertificate.validatorsHash.toString('hex'),
    },
    name: account.name,
    status: account.status,
  };
}

function boxToJSON(box: MessageBox) {
  return {
    appendPath: box.appendPath.map((hash) => hash.toString('hex')),
    root: box.root.toString('hex'),
    size: box.size,
  };
}

/**
 * An endpoint answering the entry `store` holds for the `chainID` param, as JSON, or a
 * NotFoundError naming `what` when there is none.
 */
function chainEntryEndpoint<T extends object>(
  store: ModuleStore<T>,
  what: string,
  response: EndpointHandler['response'],
  toJSON: (entry: T) => unknown,
): EndpointHandler {
  return {
    request: chainIDRequestSchema,
    response,
    handle: (context) => {
      const chainID = chainIDParam(context);
      const entry = store.get(context.state, chainID);
      if (entry === undefined) throw new NotFoundError(`${what} for chain ${chainID.toString('hex')} does not exist.`);
      return toJSON(entry);
    },
  };
}

/** The endpoints in lisk-sdk's metadata order. */
export function createInteroperabilityEndpoints(): Record<string, EndpointHandler> {
  return {
    getChainAccount: chainEntryEndpoint(chainAccountStore, 'Chain account', chainDataSchema, chainAccountToJSON),
    getAllChainAccounts: {
      request: chainIDRequestSchema,
      response: allChainAccountsSchema,
      handle: (context) => {
        const startChainID = chainIDParam(context);
        const end = Buffer.alloc(CHAIN_ID_LENGTH);
        end.writeUInt32BE(MAX_UINT32);
        const chains = chainAccountStore
          .iterate(context.state, { gte: startChainID, lte: end })
          .map(({ value }) => chainAccountToJSON(value));
        return { chains };
      },
    },
    getChannel: chainEntryEndpoint(channelDataStore, 'Channel', channelSchema, (channel) => ({
      messageFeeTokenID: channel.messageFeeTokenID.toString('hex'),
      outbox: boxToJSON(channel.outbox),
      inbox: boxToJSON(channel.inbox),
      partnerChainOutboxRoot: channel.partnerChainOutboxRoot.toString('hex'),
      minReturnFeePerByte: channel.minReturnFeePerByte.toString(),
    })),
    getOwnChainAccount: {
      response: ownChainAccountSchema,
      handle: (context) => {
        const { chainID, name, nonce } = ownChainAccountStore.getOrThrow(context.state, EMPTY_BYTES);
        return { chainID: chainID.toString('hex'), name, nonce: nonce.toString() };
      },
    },
    getTerminatedStateAccount: chainEntryEndpoint(terminatedStateStore, 'Terminated state account', terminatedStateSchema, (account) => ({
      stateRoot: account.stateRoot.toString('hex'),
      initialized: account.initialized,
      mainchainStateRoot: account.mainchainStateRoot.toString('hex'),
    })),
    getTerminatedOutboxAccount: chainEntryEndpoint(
      terminatedOutboxStore,
      'Terminated outbox account',
      terminatedOutboxSchema,
      (account) => ({
        outboxRoot: account.outboxRoot.toString('hex'),
        outboxSize: account.outboxSize,
        partnerChainInboxSize: account.partnerChainInboxSize,
      }),
    ),
    getRegistrationFee: {
      response: getRegistrationFeeResponseSchema,
      // lisk-sdk answers `fee` although its response schema names the field `registrationFee`.
      handle: () => ({ fee: CHAIN_REGISTRATION_FEE.toString() }),
    },
    getMinimumMessageFee: {
      response: getMinimumMessageFeeResponseSchema,
      handle: () => ({ fee: MIN_RETURN_FEE_PER_BYTE_BEDDOWS.toString() }),
    },
    getChainValidators: {
      request: chainIDRequestSchema,
      response: validatorsHashInputSchema,
      handle: (context) => {
        const chainID = chainIDParam(context);
        if (!chainAccountStore.has(context.state, chainID)) {
          throw new NotFoundError('Chain account does not exist.');
        }
        const validators = chainValidatorsStore.getOrThrow(context.state, chainID);
        return {
          activeValidators: validators.activeValidators.map((validator) => ({
            blsKey: validator.blsKey.toString('hex'),
            bftWeight: validator.bftWeight.toString(),
          })),
          certificateThreshold: validators.certificateThreshold.toString(),
        };
      },
    },
    isChainIDAvailable: {
      request: chainIDRequestSchema,
      response: isChainIDAvailableResponseSchema,
      handle: (context) => {
        const chainID = chainIDParam(context);
        const ownChainAccount = ownChainAccountStore.getOrThrow(context.state, EMPTY_BYTES);
        // Only chain IDs of the mainchain's network, other than the mainchain's own, can be registered.
        if (chainID[0] !== ownChainAccount.chainID[0]) return { result: false };
        if (chainID.equals(ownChainAccount.chainID)) return { result: false };
        return { result: !chainAccountStore.has(context.state, chainID) };
      },
    },
    isChainNameAvailable: {
      request: isChainNameAvailableRequestSchema,
      response: isChainNameAvailableResponseSchema,
      handle: (context) => {
        const { name } = context.params;
        if (typeof name !== 'string' || name.length < 1 || name.length > 32) {
          throw new InvalidParamsError('Parameter name must be a string of 1 to 32 characters.');
        }
        if (!isValidChainName(name)) throw new InvalidParamsError(invalidNameMessage());
        return { result: !registeredNamesStore.has(context.state, Buffer.from(name, 'ascii')) };
      },
    },
    getCCMSchema: {
      response: getCCMSchemaResponseSchema,
      handle: () => ({ schema: ccmSchema }),
    },
  };
}
