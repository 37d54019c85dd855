/**
 * RPC endpoints `interoperability_*` (lisk-sdk BaseInteroperabilityEndpoint, with
 * MainchainInteroperabilityEndpoint or SidechainInteroperabilityEndpoint): JSON in and out, bytes
 * as hex, uint64 as decimal strings. A missing entry is a NotFoundError naming the full state key,
 * as lisk-sdk's store getters word it; malformed params are an InvalidParamsError.
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
import { getMainchainID, invalidNameMessage, isValidChainName } from './utils.js';

const CHAIN_ID_HEX = /^[0-9a-fA-F]{8}$/;

/** Which interoperability module serves the endpoints: their sets differ (see the factory). */
export type InteroperabilityMode = 'mainchain' | 'sidechain';

/** lisk-sdk getMainchainIDRequestSchema: the chain ID request under its own `$id`. */
const getMainchainIDRequestSchema = {
  ...chainIDRequestSchema,
  $id: '/modules/interoperability/endpoint/getMainchainIDRequestSchema',
};

/**
 * lisk-sdk getMainchainIDResponseSchema as its metadata reports it: `mainchainID` is required
 * while the one declared property is named `result`; the answer itself is `{mainchainID}`.
 */
const getMainchainIDResponseSchema = {
  $id: '/modules/interoperability/endpoint/getMainchainIDResponseSchema',
  type: 'object',
  required: ['mainchainID'],
  properties: { result: { type: 'string' } },
};

/** What lisk-sdk's store getters throw for an absent key: the whole state key in hex. */
function keyNotFound<T extends object>(store: ModuleStore<T>, key: Buffer): NotFoundError {
  return new NotFoundError(`Key ${store.stateKey(key).toString('hex')} does not exist.`);
}

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
 * NotFoundError naming the state key when there is none.
 */
function chainEntryEndpoint<T extends object>(
  store: ModuleStore<T>,
  response: EndpointHandler['response'],
  toJSON: (entry: T) => unknown,
): EndpointHandler {
  return {
    request: chainIDRequestSchema,
    response,
    handle: (context) => {
      const chainID = chainIDParam(context);
      const entry = store.get(context.state, chainID);
      if (entry === undefined) throw keyNotFound(store, chainID);
      return toJSON(entry);
    },
  };
}

/**
 * The first endpoints of every interoperability module (lisk-sdk BaseInteroperabilityEndpoint);
 * getChainValidators and getCCMSchema, its other two, come later in lisk-sdk's metadata order.
 */
function baseEndpoints(): Record<string, EndpointHandler> {
  return {
    getChainAccount: chainEntryEndpoint(chainAccountStore, chainDataSchema, chainAccountToJSON),
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
    getChannel: chainEntryEndpoint(channelDataStore, channelSchema, (channel) => ({
      messageFeeTokenID: channel.messageFeeTokenID.toString('hex'),
      outbox: boxToJSON(channel.outbox),
      inbox: boxToJSON(channel.inbox),
      partnerChainOutboxRoot: channel.partnerChainOutboxRoot.toString('hex'),
      minReturnFeePerByte: channel.minReturnFeePerByte.toString(),
    })),
    getOwnChainAccount: {
      response: ownChainAccountSchema,
      handle: (context) => {
        const account = ownChainAccountStore.get(context.state, EMPTY_BYTES);
        if (account === undefined) throw keyNotFound(ownChainAccountStore, EMPTY_BYTES);
        const { chainID, name, nonce } = account;
        return { chainID: chainID.toString('hex'), name, nonce: nonce.toString() };
      },
    },
    getTerminatedStateAccount: chainEntryEndpoint(terminatedStateStore, terminatedStateSchema, (account) => ({
      stateRoot: account.stateRoot.toString('hex'),
      initialized: account.initialized,
      mainchainStateRoot: account.mainchainStateRoot.toString('hex'),
    })),
    getTerminatedOutboxAccount: chainEntryEndpoint(terminatedOutboxStore, terminatedOutboxSchema, (account) => ({
      outboxRoot: account.outboxRoot.toString('hex'),
      outboxSize: account.outboxSize,
      partnerChainInboxSize: account.partnerChainInboxSize,
    })),
  };
}

const getChainValidators: EndpointHandler = {
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
};

const getCCMSchema: EndpointHandler = {
  response: getCCMSchemaResponseSchema,
  handle: () => ({ schema: ccmSchema }),
};

/** The mainchain's own endpoints (lisk-sdk mainchain/endpoint.ts). */
function registrationFeeEndpoints(): Record<string, EndpointHandler> {
  return {
    getRegistrationFee: {
      response: getRegistrationFeeResponseSchema,
      // lisk-sdk answers `fee` although its response schema names the field `registrationFee`.
      handle: () => ({ fee: CHAIN_REGISTRATION_FEE.toString() }),
    },
    getMinimumMessageFee: {
      response: getMinimumMessageFeeResponseSchema,
      handle: () => ({ fee: MIN_RETURN_FEE_PER_BYTE_BEDDOWS.toString() }),
    },
  };
}

function availabilityEndpoints(): Record<string, EndpointHandler> {
  return {
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
  };
}

/** The sidechain's own endpoint (lisk-sdk sidechain/endpoint.ts): the mainchain of a chain ID's network. */
const mainchainIDEndpoint: EndpointHandler = {
  request: getMainchainIDRequestSchema,
  response: getMainchainIDResponseSchema,
  handle: (context) => ({ mainchainID: getMainchainID(chainIDParam(context)).toString('hex') }),
};

/**
 * The `interoperability_*` endpoints of a mainchain (the default) or a sidechain, in the order
 * lisk-sdk's module metadata lists them.
 */
export function createInteroperabilityEndpoints(mode: InteroperabilityMode = 'mainchain'): Record<string, EndpointHandler> {
  if (mode === 'sidechain') {
    return { ...baseEndpoints(), getChainValidators, getMainchainID: mainchainIDEndpoint, getCCMSchema };
  }
  return {
    ...baseEndpoints(),
    ...registrationFeeEndpoints(),
    getChainValidators,
    ...availabilityEndpoints(),
    getCCMSchema,
  };
}
