/**
 * Constants of the token module (LIP 0051; lisk-sdk framework/src/modules/token/constants.ts).
 */

export const TOKEN_MODULE_NAME = 'token';

export const ADDRESS_LENGTH = 20;
export const CHAIN_ID_LENGTH = 4;
export const LOCAL_ID_LENGTH = 4;
/** A token ID is the chain ID of the chain that minted it followed by a local ID. */
export const TOKEN_ID_LENGTH = CHAIN_ID_LENGTH + LOCAL_ID_LENGTH;
export const HASH_LENGTH = 32;

/** Longest `data` string a transfer may carry (characters, as the schema's maxLength counts). */
export const MAX_DATA_LENGTH = 64;
export const MIN_MODULE_NAME_LENGTH = 1;
export const MAX_MODULE_NAME_LENGTH = 32;

/** Name of the cross-chain command a transferCrossChain transaction sends (CCM `crossChainCommand`). */
export const CROSS_CHAIN_COMMAND_NAME_TRANSFER = 'transferCrossChain';

/** Defaults of `modules.token` (lisk-sdk USER/ESCROW_ACCOUNT_INITIALIZATION_FEE, 0.05 LSK each). */
export const DEFAULT_USER_ACCOUNT_INITIALIZATION_FEE = 5_000_000n;
export const DEFAULT_ESCROW_ACCOUNT_INITIALIZATION_FEE = 5_000_000n;

/** Exclusive upper bound of a uint64 amount; supplies and balances must stay below it. */
export const UINT64_LIMIT = 2n ** 64n;

/**
 * `result` field of the token events (lisk-sdk TokenEventResult). Every value but SUCCESSFUL is
 * emitted by `error` variants, which are non-revertible.
 */
export const TokenEventResult = {
  SUCCESSFUL: 0,
  FAIL_INSUFFICIENT_BALANCE: 1,
  DATA_TOO_LONG: 2,
  INVALID_TOKEN_ID: 3,
  TOKEN_NOT_SUPPORTED: 4,
  INSUFFICIENT_LOCKED_AMOUNT: 5,
  RECOVER_FAIL_INVALID_INPUTS: 6,
  RECOVER_FAIL_INSUFFICIENT_ESCROW: 7,
  MINT_FAIL_NON_NATIVE_TOKEN: 8,
  MINT_FAIL_TOTAL_SUPPLY_TOO_BIG: 9,
  MINT_FAIL_TOKEN_NOT_INITIALIZED: 10,
  TOKEN_ID_NOT_AVAILABLE: 11,
  TOKEN_ID_NOT_NATIVE: 12,
  INSUFFICIENT_ESCROW_BALANCE: 13,
  INVALID_RECEIVING_CHAIN: 14,
} as const;

export type TokenEventResult = (typeof TokenEventResult)[keyof typeof TokenEventResult];
export type TokenErrorResult = Exclude<TokenEventResult, typeof TokenEventResult.SUCCESSFUL>;
