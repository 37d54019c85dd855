/**
 * Schemas of the token module that are not store or event schemas (lisk-sdk token/schemas.ts):
 * command params, the cross-chain transfer message, the genesis asset, the config and the
 * endpoint request/response schemas. They are protocol data: `system_getMetadata` must return
 * them exactly (chains/dev/metadata.json).
 */
import { objectArrayField, objectOf, objectSchema, type Schema } from '../../codec/index.js';
import { CHAIN_ID_LENGTH, MAX_DATA_LENGTH, MAX_MODULE_NAME_LENGTH, MIN_MODULE_NAME_LENGTH, TOKEN_ID_LENGTH } from './constants.js';

const tokenIDProperty = (fieldNumber: number) =>
  ({ dataType: 'bytes', fieldNumber, minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH }) as const;
const dataProperty = (fieldNumber: number) => ({ dataType: 'string', fieldNumber, minLength: 0, maxLength: MAX_DATA_LENGTH }) as const;

/** Params of `token:transfer`. */
export interface TransferParams {
  tokenID: Buffer;
  amount: bigint;
  recipientAddress: Buffer;
  data: string;
}

/** Params of `token:transferCrossChain`. */
export interface TransferCrossChainParams {
  tokenID: Buffer;
  amount: bigint;
  receivingChainID: Buffer;
  recipientAddress: Buffer;
  data: string;
  messageFee: bigint;
  messageFeeTokenID: Buffer;
}

/** Params of the `transferCrossChain` cross-chain message the command sends. */
export interface CrossChainTransferMessageParams {
  tokenID: Buffer;
  amount: bigint;
  senderAddress: Buffer;
  recipientAddress: Buffer;
  data: string;
}

export const transferParamsSchema: Schema = {
  $id: '/lisk/transferParams',
  title: 'Transfer transaction params',
  type: 'object',
  required: ['tokenID', 'amount', 'recipientAddress', 'data'],
  properties: {
    tokenID: tokenIDProperty(1),
    amount: { dataType: 'uint64', fieldNumber: 2 },
    recipientAddress: { dataType: 'bytes', fieldNumber: 3, format: 'lisk32' },
    data: dataProperty(4),
  },
};

export const transferCrossChainParamsSchema: Schema = objectSchema('/lisk/ccTransferParams', {
  tokenID: tokenIDProperty(1),
  amount: { dataType: 'uint64', fieldNumber: 2 },
  receivingChainID: { dataType: 'bytes', fieldNumber: 3, minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH },
  recipientAddress: { dataType: 'bytes', fieldNumber: 4, format: 'lisk32' },
  data: dataProperty(5),
  messageFee: { dataType: 'uint64', fieldNumber: 6 },
  messageFeeTokenID: tokenIDProperty(7),
});

export const crossChainTransferMessageParamsSchema: Schema = objectSchema('/lisk/ccTransferMessageParams', {
  tokenID: tokenIDProperty(1),
  amount: { dataType: 'uint64', fieldNumber: 2 },
  senderAddress: { dataType: 'bytes', fieldNumber: 3, format: 'lisk32' },
  recipientAddress: { dataType: 'bytes', fieldNumber: 4, format: 'lisk32' },
  data: dataProperty(5),
});

/** The decoded genesis asset of the token module. */
export interface GenesisTokenAsset {
  userSubstore: {
    address: Buffer;
    tokenID: Buffer;
    availableBalance: bigint;
    lockedBalances: { module: string; amount: bigint }[];
  }[];
  supplySubstore: { tokenID: Buffer; totalSupply: bigint }[];
  escrowSubstore: { escrowChainID: Buffer; tokenID: Buffer; amount: bigint }[];
  supportedTokensSubstore: { chainID: Buffer; supportedTokenIDs: Buffer[] }[];
}

export const genesisTokenAssetSchema: Schema = objectSchema('/token/module/genesis', {
  userSubstore: objectArrayField(1, {
    address: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
    tokenID: tokenIDProperty(2),
    availableBalance: { dataType: 'uint64', fieldNumber: 3 },
    lockedBalances: objectArrayField(4, {
      module: {
        dataType: 'string',
        minLength: MIN_MODULE_NAME_LENGTH,
        maxLength: MAX_MODULE_NAME_LENGTH,
        fieldNumber: 1,
      },
      amount: { dataType: 'uint64', fieldNumber: 2 },
    }),
  }),
  supplySubstore: objectArrayField(2, {
    tokenID: tokenIDProperty(1),
    totalSupply: { dataType: 'uint64', fieldNumber: 2 },
  }),
  escrowSubstore: objectArrayField(3, {
    escrowChainID: { dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber: 1 },
    tokenID: tokenIDProperty(2),
    amount: { dataType: 'uint64', fieldNumber: 3 },
  }),
  supportedTokensSubstore: objectArrayField(4, {
    chainID: { dataType: 'bytes', fieldNumber: 1 },
    supportedTokenIDs: {
      type: 'array',
      fieldNumber: 2,
      items: { dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH },
    },
  }),
});

/** `modules.token` of a Lisk config (lisk-sdk configSchema): both fees are uint64 strings. */
export const tokenConfigSchema = {
  $id: '/token/config',
  type: 'object',
  properties: {
    userAccountInitializationFee: { type: 'string', format: 'uint64' },
    escrowAccountInitializationFee: { type: 'string', format: 'uint64' },
  },
} as const;

// ---- endpoint schemas (JSON schemas, not codec schemas) ----

const hexTokenID = { type: 'string', format: 'hex', minLength: TOKEN_ID_LENGTH * 2, maxLength: TOKEN_ID_LENGTH * 2 };
const lisk32Address = { type: 'string', format: 'lisk32' };
const lockedBalancesJSON = {
  type: 'array',
  items: objectOf({
    module: { type: 'string' },
    amount: { type: 'string', format: 'uint64' },
  }),
};

export const getBalanceRequestSchema = {
  $id: '/token/endpoint/getBalanceRequest',
  type: 'object',
  properties: { address: lisk32Address, tokenID: hexTokenID },
  required: ['address', 'tokenID'],
};

export const getBalanceResponseSchema = objectSchema('/token/endpoint/getBalanceResponse', {
  availableBalance: { type: 'string', format: 'uint64' },
  lockedBalances: lockedBalancesJSON,
});

export const getBalancesRequestSchema = {
  $id: '/token/endpoint/getBalancesRequest',
  type: 'object',
  properties: { address: lisk32Address },
  required: ['address'],
};

export const getBalancesResponseSchema = objectSchema('/token/endpoint/getBalancesResponse', {
  balances: {
    type: 'array',
    items: {
      type: 'object',
      required: ['availableBalance', 'lockedBalances', 'tokenID'],
      properties: {
        tokenID: { type: 'string', format: 'hex' },
        availableBalance: { type: 'string', format: 'uint64' },
        lockedBalances: lockedBalancesJSON,
      },
    },
  },
});

export const getTotalSupplyResponseSchema = {
  $id: '/token/endpoint/getTotalSupplyResponse',
  type: 'object',
  properties: {
    totalSupply: {
      type: 'array',
      items: {
        type: 'object',
        required: ['totalSupply', 'tokenID'],
        properties: {
          tokenID: { type: 'string', format: 'hex' },
          totalSupply: { type: 'string', format: 'uint64' },
        },
      },
    },
  },
};

/** lisk-sdk's declared response (`tokenIDs`) differs from what the handler returns (`supportedTokens`). */
export const getSupportedTokensResponseSchema = {
  $id: '/token/endpoint/getSupportedTokensResponse',
  type: 'object',
  properties: {
    tokenIDs: { type: 'array', items: { type: 'string', format: 'hex' } },
  },
};

export const getEscrowedAmountsResponseSchema = {
  $id: '/token/endpoint/getEscrowedAmountsResponse',
  type: 'object',
  properties: {
    escrowedAmounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['escrowChainID', 'amount', 'tokenID'],
        properties: {
          escrowChainID: { type: 'string', format: 'hex' },
          tokenID: { type: 'string', format: 'hex' },
          amount: { type: 'string', format: 'uint64' },
        },
      },
    },
  },
};

export const isSupportedRequestSchema = {
  $id: '/token/endpoint/isSupportedRequest',
  type: 'object',
  properties: { tokenID: hexTokenID },
  required: ['tokenID'],
};

/** lisk-sdk declares `supported` with `dataType`, a codec keyword, in this JSON schema. */
export const isSupportedResponseSchema = {
  $id: '/token/endpoint/isSupportedResponse',
  type: 'object',
  properties: { supported: { dataType: 'boolean' } },
  required: ['supported'],
};

export const getInitializationFeesResponseSchema = {
  $id: '/token/endpoint/getInitializationFees',
  type: 'object',
  properties: {
    userAccount: { type: 'string', format: 'uint64' },
    escrowAccount: { type: 'string', format: 'uint64' },
  },
  required: ['userAccount', 'escrowAccount'],
};

export const hasUserAccountRequestSchema = {
  $id: '/token/endpoint/hasUserAccountRequest',
  type: 'object',
  properties: { address: lisk32Address, tokenID: hexTokenID },
  required: ['address', 'tokenID'],
};

/** `escrowChainID` has no length limit in lisk-sdk's schema. */
export const hasEscrowAccountRequestSchema = {
  $id: '/token/endpoint/hasEscrowAccountRequest',
  type: 'object',
  properties: {
    tokenID: hexTokenID,
    escrowChainID: { type: 'string', format: 'hex' },
  },
  required: ['tokenID', 'escrowChainID'],
};

const existsResponse = (id: string) => ({
  $id: id,
  type: 'object',
  properties: { exists: { type: 'boolean' } },
});

export const hasUserAccountResponseSchema = existsResponse('/token/endpoint/hasUserAccountResponse');
export const hasEscrowAccountResponseSchema = existsResponse('/token/endpoint/hasEscrowAccountResponse');
