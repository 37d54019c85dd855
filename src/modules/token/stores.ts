/**
 * The token module's substores (LIP 0051 "State Store"), in lisk-sdk's registration order:
 * index 0 user (3c469e9d 0000), 1 supply (8000), 2 escrow (4000), 3 supportedTokens (c000).
 *
 * Keys: user `address(20) ‖ tokenID(8)`, supply `tokenID`, escrow `escrowChainID(4) ‖ tokenID`,
 * supportedTokens `chainID(4)` or the empty key, which means "every token is supported".
 */
import { objectArrayField, objectSchema, type Schema } from '../../codec/index.js';
import { joinKey, ModuleStore } from '../base/index.js';
import { MAX_MODULE_NAME_LENGTH, MIN_MODULE_NAME_LENGTH, TOKEN_ID_LENGTH, TOKEN_MODULE_NAME } from './constants.js';

export interface LockedBalance {
  module: string;
  amount: bigint;
}

/** Balance of one token held by one address. */
export interface UserAccount {
  availableBalance: bigint;
  /** At most one entry per module, sorted by module name, no zero amounts (see user-account.ts). */
  lockedBalances: LockedBalance[];
}

export interface SupplyEntry {
  totalSupply: bigint;
}

/** Amount of a native token held in escrow for another chain. */
export interface EscrowEntry {
  amount: bigint;
}

/** Tokens of one foreign chain this chain accepts; an empty list means all of that chain's tokens. */
export interface SupportedTokensEntry {
  supportedTokenIDs: Buffer[];
}

export const userStoreSchema: Schema = objectSchema('/token/store/user', {
  availableBalance: { dataType: 'uint64', fieldNumber: 1 },
  lockedBalances: objectArrayField(2, {
    module: {
      dataType: 'string',
      fieldNumber: 1,
      minLength: MIN_MODULE_NAME_LENGTH,
      maxLength: MAX_MODULE_NAME_LENGTH,
    },
    amount: { dataType: 'uint64', fieldNumber: 2 },
  }),
});

export const supplyStoreSchema: Schema = objectSchema('/token/store/supply', {
  totalSupply: { dataType: 'uint64', fieldNumber: 1 },
});

export const escrowStoreSchema: Schema = objectSchema('/token/store/escrow', {
  amount: { dataType: 'uint64', fieldNumber: 1 },
});

export const supportedTokensStoreSchema: Schema = objectSchema('/token/store/supportedTokens', {
  supportedTokenIDs: {
    type: 'array',
    fieldNumber: 1,
    items: { dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH },
  },
});

export const userStore = new ModuleStore<UserAccount>(TOKEN_MODULE_NAME, 'userSubstore', 0, userStoreSchema);
export const supplyStore = new ModuleStore<SupplyEntry>(TOKEN_MODULE_NAME, 'supplySubstore', 1, supplyStoreSchema);
export const escrowStore = new ModuleStore<EscrowEntry>(TOKEN_MODULE_NAME, 'escrowSubstore', 2, escrowStoreSchema);
export const supportedTokensStore = new ModuleStore<SupportedTokensEntry>(
  TOKEN_MODULE_NAME,
  'supportedTokensSubstore',
  3,
  supportedTokensStoreSchema,
);

/** In registration (= substore index) order, as metadata lists them. */
export const tokenStores = [userStore, supplyStore, escrowStore, supportedTokensStore] as const;

/** The supportedTokens key whose presence means every token of every chain is supported. */
export const ALL_SUPPORTED_TOKENS_KEY: Buffer = Buffer.alloc(0);

export function userKey(address: Buffer, tokenID: Buffer): Buffer {
  return joinKey(address, tokenID);
}

export function escrowKey(escrowChainID: Buffer, tokenID: Buffer): Buffer {
  return joinKey(escrowChainID, tokenID);
}

/**
 * Bounds lisk-sdk iterates supply and supportedTokens with: 8 zero bytes to 8 0xff bytes. Keys
 * are compared as bytes, so the 4-byte chain IDs of supportedTokens fall inside (except the
 * empty "all supported" key and chain ID 00000000, which sort before the lower bound).
 */
export const TOKEN_ID_RANGE = Object.freeze({
  gte: Buffer.alloc(TOKEN_ID_LENGTH, 0),
  lte: Buffer.alloc(TOKEN_ID_LENGTH, 0xff),
});
