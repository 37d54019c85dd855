/**
 * Message, command, genesis and endpoint schemas of the interoperability module (lisk-sdk
 * interoperability/schemas.ts; LIP 0045, 0049, 0053, 0054). Store value schemas are in stores.ts.
 */
import { objectArrayField, objectField, objectOf, objectSchema, type Schema } from '../../codec/index.js';
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
export const ccmSchema: Schema = objectSchema('/modules/interoperability/ccm', {
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
});

export const activeValidatorsArray = {
  type: 'array',
  items: objectOf({
    blsKey: { dataType: 'bytes', fieldNumber: 1, minLength: BLS_PUBLIC_KEY_LENGTH, maxLength: BLS_PUBLIC_KEY_LENGTH },
    bftWeight: { dataType: 'uint64', fieldNumber: 2 },
  }),
  minItems: 1,
} as const;

/** LIP 0043 registerSidechain params. */
export const sidechainRegistrationParamsSchema: Schema = objectSchema('/modules/interoperability/mainchain/sidechainRegistration', {
  chainID: chainIDProperty(1),
  name: { dataType: 'string', fieldNumber: 2, minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH },
  sidechainValidators: { ...activeValidatorsArray, fieldNumber: 3, maxItems: MAX_NUM_VALIDATORS },
  sidechainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
});

/** LIP 0053 cross-chain update params (submitMainchainCrossChainUpdate). */
export const crossChainUpdateParamsSchema: Schema = objectSchema('/modules/interoperability/ccu', {
  sendingChainID: chainIDProperty(1),
  certificate: { dataType: 'bytes', fieldNumber: 2 },
  activeValidatorsUpdate: objectField(3, {
    blsKeysUpdate: {
      type: 'array',
      fieldNumber: 1,
      items: { dataType: 'bytes', minLength: BLS_PUBLIC_KEY_LENGTH, maxLength: BLS_PUBLIC_KEY_LENGTH },
    },
    bftWeightsUpdate: { type: 'array', fieldNumber: 2, items: { dataType: 'uint64' } },
    bftWeightsUpdateBitmap: { dataType: 'bytes', fieldNumber: 3 },
  }),
  certificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
  inboxUpdate: objectField(5, {
    crossChainMessages: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } },
    messageWitnessHashes: {
      type: 'array',
      fieldNumber: 2,
      items: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
    },
    outboxRootWitness: objectField(3, {
      bitmap: { dataType: 'bytes', fieldNumber: 1 },
      siblingHashes: {
        type: 'array',
        fieldNumber: 2,
        items: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
      },
    }),
  }),
});

/** LIP 0054 message recovery initialization params. */
export const messageRecoveryInitializationParamsSchema: Schema = objectSchema(
  '/modules/interoperability/mainchain/messageRecoveryInitialization',
  {
    chainID: chainIDProperty(1),
    channel: { dataType: 'bytes', fieldNumber: 2 },
    bitmap: { dataType: 'bytes', fieldNumber: 3 },
    siblingHashes: hashArrayProperty(4),
  },
);

/** LIP 0054 message recovery params. */
export const messageRecoveryParamsSchema: Schema = objectSchema('/modules/interoperability/mainchain/messageRecovery', {
  chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
  crossChainMessages: { type: 'array', items: { dataType: 'bytes' }, fieldNumber: 2 },
  idxs: { type: 'array', items: { dataType: 'uint32' }, fieldNumber: 3 },
  siblingHashes: hashArrayProperty(4),
});

/** LIP 0054 state recovery params. */
export const stateRecoveryParamsSchema: Schema = objectSchema('/modules/interoperability/mainchain/commands/stateRecovery', {
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
});

/** LIP 0054 liveness termination params. */
export const terminateSidechainForLivenessParamsSchema: Schema = objectSchema(
  '/modules/interoperability/mainchain/terminateSidechainForLiveness',
  {
    chainID: chainIDProperty(1),
  },
);

/** LIP 0049 params of the `registration` cross-chain command sent to a new sidechain. */
export const registrationCCMParamsSchema: Schema = objectSchema('/modules/interoperability/ccCommand/registration', {
  name: { dataType: 'string', minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH, fieldNumber: 1 },
  chainID: chainIDProperty(2),
  messageFeeTokenID: { dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH, fieldNumber: 3 },
  minReturnFeePerByte: { dataType: 'uint64', fieldNumber: 4 },
});

/** LIP 0045 genesis asset. */
export const genesisInteroperabilitySchema: Schema = objectSchema('/interoperability/module/genesis', {
  ownChainName: { dataType: 'string', maxLength: MAX_CHAIN_NAME_LENGTH, fieldNumber: 1 },
  ownChainNonce: { dataType: 'uint64', fieldNumber: 2 },
  chainInfos: objectArrayField(3, {
    chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
    chainData: { ...chainDataSchema, fieldNumber: 2 },
    channelData: { ...channelSchema, fieldNumber: 3 },
    chainValidators: { ...chainValidatorsSchema, fieldNumber: 4 },
  }),
  terminatedStateAccounts: objectArrayField(4, {
    chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
    terminatedStateAccount: { ...terminatedStateSchema, fieldNumber: 2 },
  }),
  terminatedOutboxAccounts: objectArrayField(5, {
    chainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
    terminatedOutboxAccount: { ...terminatedOutboxSchema, fieldNumber: 2 },
  }),
});

// ---- Endpoint schemas (JSON schemas for RPC params and answers, as lisk-sdk reports them) ----

export const chainIDRequestSchema = objectSchema('/modules/interoperability/endpoint/getChainAccountRequest', {
  chainID: { type: 'string', format: 'hex', minLength: 2 * CHAIN_ID_LENGTH, maxLength: 2 * CHAIN_ID_LENGTH },
});

/** lisk-sdk chainDataJSONSchema: the JSON shape of a chain account inside getAllChainAccounts. */
const chainDataJSONSchema = objectOf({
  name: { dataType: 'string', fieldNumber: 1 },
  lastCertificate: objectField(2, {
    height: { dataType: 'uint32', fieldNumber: 1 },
    timestamp: { dataType: 'uint32', fieldNumber: 2 },
    stateRoot: { dataType: 'string', format: 'hex', fieldNumber: 3 },
    validatorsHash: { dataType: 'string', format: 'hex', fieldNumber: 4 },
  }),
  status: { dataType: 'uint32', fieldNumber: 3 },
});

export const allChainAccountsSchema = objectSchema('/modules/interoperability/allChainAccounts', {
  chains: { type: 'array', items: chainDataJSONSchema },
});

export const isChainIDAvailableResponseSchema = objectSchema('/modules/interoperability/endpoint/isChainIDAvailableResponseSchema', {
  result: { type: 'boolean' },
});

export const isChainNameAvailableRequestSchema = objectSchema('/modules/interoperability/endpoint/isChainNameAvailableRequest', {
  name: { dataType: 'string', fieldNumber: 1, minLength: MIN_CHAIN_NAME_LENGTH, maxLength: MAX_CHAIN_NAME_LENGTH },
});

export const isChainNameAvailableResponseSchema = {
  ...isChainIDAvailableResponseSchema,
  $id: '/modules/interoperability/endpoint/isChainNameAvailableResponseSchema',
} as const;

export const getRegistrationFeeResponseSchema = objectSchema('/modules/interoperability/mainchain/registrationFee', {
  registrationFee: { type: 'string' },
});

export const getMinimumMessageFeeResponseSchema = objectSchema('/modules/interoperability/mainchain/minimumMessageFeeResponse', {
  fee: { type: 'string' },
});

export const getCCMSchemaResponseSchema = objectSchema('/modules/interoperability/endpoint/getCCMSchemaResponseSchema', {
  schema: { ...ccmSchema },
});
