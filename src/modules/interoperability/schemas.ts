/**
 * Message, command, genesis and endpoint schemas of the interoperability module (lisk-sdk
 * interoperability/schemas.ts; LIP 0045, 0049, 0053, 0054). Store value schemas are in stores.ts.
 */
import type { Schema } from '../../codec/index.js';
import {
  BLS_PUBLIC_KEY_LENGTH,
  CHAIN_ID_LENGTH,
  HASH_LENGTH,
  MAX_CHAIN_NAME_LENGTH,
  MAX_CROSS_CHAIN_COMMAND_NAME_LENGTH,
  MAX_MODULE_NAME_LENGTH,
  MAX_NUM_VALIDATORS,
  MIN_CHAIN_NAME_LENGTH,
  MIN_CROSS_CHAIN_COMMAND_NAME_LENGTH,
  MIN_MODULE_NAME_LENGTH,
  SUBSTORE_PREFIX_LENGTH,
  TOKEN_ID_LENGTH,
} from './constants.js';
import { chainDataSchema, chainValidatorsSchema, channelSchema, terminatedOutboxSchema, terminatedStateSchema } from './stores.js';

const chainIDProperty = (fieldNumber: number) =>
  ({ dataType: 'bytes', fieldNumber, minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH }) as const;
const hashArrayProperty = (fieldNumber: number) =>
  ({
    type: 'array',
    items: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
    fieldNumber,
  }) as const;

/** LIP 0049 cross-chain message. */
export const ccmSchema: Schema = {
  $id: '/modules/interoperability/ccm',
  type: 'object',
  required: ['module', 'crossChainCommand', 'nonce', 'fee', 'sendingChainID', 'receivingChainID', 'params', 'status'],
  properties: {
    module: { dataType: 'string', minLength: MIN_MODULE_NAME_LENGTH, maxLength: MAX_MODULE_NAME_LENGTH, fieldNumber: 1 },
    crossChainCommand: {
      dataType: 'string',
      minLength: MIN_CROSS_CHAIN_COMMAND_NAME_LENGTH,
      maxLength: MAX_CROSS_CHAIN_COMMAND_NAME_LENGTH,
      fieldNumber: 2,
    },
    nonce: { dataType: 'uint64', fieldNumber: 3 },
    fee: { dataType: 'uint64', fieldNumber: 4 },
    sendingChainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 5 },
    receivingChainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 6 },
    params: { dataType: 'bytes', fieldNumber: 7 },
    status: { dataType: 'uint32', fieldNumber: 8 },
  },
};

const activeValidatorsArray = {
  type: 'array',
  items: {
    type: 'object',
    required: ['blsKey', 'bftWeight'],
    properties: {
      blsKey: { dataType: 'bytes', fieldNumber: 1, minLength: BLS_PUBLIC_KEY_LENGTH, maxLength: BLS_PUBLIC_KEY_LENGTH },
      bftWeight: { dataType: 'uint64', fieldNumber: 2 },
    },
  },
  minItems: 1,
} as const;

/** LIP 0043 registerSidechain params. */
export const sidechainRegistrationParamsSchema: Schema = {
  $id: '/modules/interoperability/mainchain/sidechainRegistration',
  type: 'object',
  required: ['chainID', 'name', 'sidechainValidators', 'sidechainCertificateThreshold'],
  properties: {
    chainID: chainIDProperty(1),
    name: { dataType: 'string', fieldNumber: 2, minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH },
    sidechainValidators: { ...activeValidatorsArray, fieldNumber: 3, maxItems: MAX_NUM_VALIDATORS },
    sidechainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
  },
};

/** LIP 0053 cross-chain update params (submitMainchainCrossChainUpdate). */
export const crossChainUpdateParamsSchema: Schema = {
  $id: '/modules/interoperability/ccu',
  type: 'object',
  required: ['sendingChainID', 'certificate', 'activeValidatorsUpdate', 'certificateThreshold', 'inboxUpdate'],
  properties: {
    sendingChainID: chainIDProperty(1),
    certificate: { dataType: 'bytes', fieldNumber: 2 },
    activeValidatorsUpdate: {
      type: 'object',
      fieldNumber: 3,
      required: ['blsKeysUpdate', 'bftWeightsUpdate', 'bftWeightsUpdateBitmap'],
      properties: {
        blsKeysUpdate: {
          type: 'array',
          fieldNumber: 1,
          items: { dataType: 'bytes', minLength: BLS_PUBLIC_KEY_LENGTH, maxLength: BLS_PUBLIC_KEY_LENGTH },
        },
        bftWeightsUpdate: { type: 'array', fieldNumber: 2, items: { dataType: 'uint64' } },
        bftWeightsUpdateBitmap: { dataType: 'bytes', fieldNumber: 3 },
      },
    },
    certificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
    inboxUpdate: {
      type: 'object',
      fieldNumber: 5,
      required: ['crossChainMessages', 'messageWitnessHashes', 'outboxRootWitness'],
      properties: {
        crossChainMessages: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } },
        messageWitnessHashes: {
          type: 'array',
          fieldNumber: 2,
          items: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
        },
        outboxRootWitness: {
          type: 'object',
          fieldNumber: 3,
          required: ['bitmap', 'siblingHashes'],
          properties: {
            bitmap: { dataType: 'bytes', fieldNumber: 1 },
            siblingHashes: {
              type: 'array',
              fieldNumber: 2,
              items: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
            },
          },
        },
      },
    },
  },
};

/** LIP 0054 message recovery initialization params. */
export const messageRecoveryInitializationParamsSchema: Schema = {
  $id: '/modules/interoperability/mainchain/messageRecoveryInitialization',
  type: 'object',
  required: ['chainID', 'channel', 'bitmap', 'siblingHashes'],
  properties: {
    chainID: chainIDProperty(1),
    channel: { dataType: 'bytes', fieldNumber: 2 },
    bitmap: { dataType: 'bytes', fieldNumber: 3 },
    siblingHashes: hashArrayProperty(4),
  },
};

/** LIP 0054 message recovery params. */
export const messageRecoveryParamsSchema: Schema = {
  $id: '/modules/interoperability/mainchain/messageRecovery',
  type: 'object',
  required: ['chainID', 'crossChainMessages', 'idxs', 'siblingHashes'],
  properties: {
    chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
    crossChainMessages: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 2 },
    idxs: { type: 'array', items: { dataType: 'uint32' }, fieldNumber: 3 },
    siblingHashes: hashArrayProperty(4),
  },
};

/** LIP 0054 state recovery params. */
export const stateRecoveryParamsSchema: Schema = {
  $id: '/modules/interoperability/mainchain/commands/stateRecovery',
  type: 'object',
  required: ['chainID', 'module', 'storeEntries', 'siblingHashes'],
  properties: {
    chainID: chainIDProperty(1),
    module: { dataType: 'string', fieldNumber: 2, minLength: MIN_MODULE_NAME_LENGTH, maxLength: MAX_MODULE_NAME_LENGTH },
    storeEntries: {
      type: 'array',
      fieldNumber: 3,
      items: {
        type: 'object',
        properties: {
          substorePrefix: {
            dataType: 'bytes',
            fieldNumber: 1,
            minLength: SUBSTORE_PREFIX_LENGTH,
            maxLength: SUBSTORE_PREFIX_LENGTH,
          },
          storeKey: { dataType: 'bytes', fieldNumber: 2 },
          storeValue: { dataType: 'bytes', fieldNumber: 3 },
          bitmap: { dataType: 'bytes', fieldNumber: 4 },
        },
        required: ['substorePrefix', 'storeKey', 'storeValue', 'bitmap'],
      },
    },
    siblingHashes: hashArrayProperty(4),
  },
};

/** LIP 0054 liveness termination params. */
export const terminateSidechainForLivenessParamsSchema: Schema = {
  $id: '/modules/interoperability/mainchain/terminateSidechainForLiveness',
  type: 'object',
  required: ['chainID'],
  properties: {
    chainID: chainIDProperty(1),
  },
};

/** LIP 0049 params of the `registration` cross-chain command sent to a new sidechain. */
export const registrationCCMParamsSchema: Schema = {
  $id: '/modules/interoperability/ccCommand/registration',
  type: 'object',
  required: ['name', 'chainID', 'messageFeeTokenID', 'minReturnFeePerByte'],
  properties: {
    name: { dataType: 'string', minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH, fieldNumber: 1 },
    chainID: chainIDProperty(2),
    messageFeeTokenID: { dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH, fieldNumber: 3 },
    minReturnFeePerByte: { dataType: 'uint64', fieldNumber: 4 },
  },
};

/** LIP 0045 genesis asset. */
export const genesisInteroperabilitySchema: Schema = {
  $id: '/interoperability/module/genesis',
  type: 'object',
  required: ['ownChainName', 'ownChainNonce', 'chainInfos', 'terminatedStateAccounts', 'terminatedOutboxAccounts'],
  properties: {
    ownChainName: { dataType: 'string', maxLength: MAX_CHAIN_NAME_LENGTH, fieldNumber: 1 },
    ownChainNonce: { dataType: 'uint64', fieldNumber: 2 },
    chainInfos: {
      type: 'array',
      fieldNumber: 3,
      items: {
        type: 'object',
        required: ['chainID', 'chainData', 'channelData', 'chainValidators'],
        properties: {
          chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
          chainData: { ...chainDataSchema, fieldNumber: 2 },
          channelData: { ...channelSchema, fieldNumber: 3 },
          chainValidators: { ...chainValidatorsSchema, fieldNumber: 4 },
        },
      },
    },
    terminatedStateAccounts: {
      type: 'array',
      fieldNumber: 4,
      items: {
        type: 'object',
        required: ['chainID', 'terminatedStateAccount'],
        properties: {
          chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
          terminatedStateAccount: { ...terminatedStateSchema, fieldNumber: 2 },
        },
      },
    },
    terminatedOutboxAccounts: {
      type: 'array',
      fieldNumber: 5,
      items: {
        type: 'object',
        required: ['chainID', 'terminatedOutboxAccount'],
        properties: {
          chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
          terminatedOutboxAccount: { ...terminatedOutboxSchema, fieldNumber: 2 },
        },
      },
    },
  },
} as Schema;

// ---- Endpoint schemas (JSON schemas for RPC params and answers, as lisk-sdk reports them) ----

export const chainIDRequestSchema = {
  $id: '/modules/interoperability/endpoint/getChainAccountRequest',
  type: 'object',
  required: ['chainID'],
  properties: {
    chainID: { type: 'string', format: 'hex', minLength: 2 * CHAIN_ID_LENGTH, maxLength: 2 * CHAIN_ID_LENGTH },
  },
} as const;

/** lisk-sdk chainDataJSONSchema: the JSON shape of a chain account inside getAllChainAccounts. */
const chainDataJSONSchema = {
  type: 'object',
  required: ['name', 'lastCertificate', 'status'],
  properties: {
    name: { dataType: 'string', fieldNumber: 1 },
    lastCertificate: {
      type: 'object',
      fieldNumber: 2,
      required: ['height', 'timestamp', 'stateRoot', 'validatorsHash'],
      properties: {
        height: { dataType: 'uint32', fieldNumber: 1 },
        timestamp: { dataType: 'uint32', fieldNumber: 2 },
        stateRoot: { dataType: 'string', format: 'hex', fieldNumber: 3 },
        validatorsHash: { dataType: 'string', format: 'hex', fieldNumber: 4 },
      },
    },
    status: { dataType: 'uint32', fieldNumber: 3 },
  },
} as const;

export const allChainAccountsSchema = {
  $id: '/modules/interoperability/allChainAccounts',
  type: 'object',
  required: ['chains'],
  properties: {
    chains: { type: 'array', items: chainDataJSONSchema },
  },
} as const;

export const isChainIDAvailableResponseSchema = {
  $id: '/modules/interoperability/endpoint/isChainIDAvailableResponseSchema',
  type: 'object',
  required: ['result'],
  properties: { result: { type: 'boolean' } },
} as const;

export const isChainNameAvailableRequestSchema = {
  $id: '/modules/interoperability/endpoint/isChainNameAvailableRequest',
  type: 'object',
  required: ['name'],
  properties: {
    name: { dataType: 'string', fieldNumber: 1, minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH },
  },
} as const;

export const isChainNameAvailableResponseSchema = {
  ...isChainIDAvailableResponseSchema,
  $id: '/modules/interoperability/endpoint/isChainNameAvailableResponseSchema',
} as const;

export const getRegistrationFeeResponseSchema = {
  $id: '/modules/interoperability/mainchain/registrationFee',
  type: 'object',
  required: ['registrationFee'],
  properties: { registrationFee: { type: 'string' } },
} as const;

export const getMinimumMessageFeeResponseSchema = {
  $id: '/modules/interoperability/mainchain/minimumMessageFeeResponse',
  type: 'object',
  required: ['fee'],
  properties: { fee: { type: 'string' } },
} as const;

export const getCCMSchemaResponseSchema = {
  $id: '/modules/interoperability/endpoint/getCCMSchemaResponseSchema',
  type: 'object',
  required: ['schema'],
  properties: { schema: { ...ccmSchema } },
} as const;
