/** Constants of the fee module (LIP 0048; lisk-sdk framework/src/modules/fee/constants.ts). */

export const FEE_MODULE_NAME = 'fee';

/** lisk-sdk defaults: 1000 beddows per byte, no zero-fee period. */
export const DEFAULT_MIN_FEE_PER_BYTE = 1000;
export const DEFAULT_MAX_BLOCK_HEIGHT_ZERO_FEE_PER_BYTE = 0;

/** contextStore key of what is left of a transaction's fee beyond the minimum (a bigint). */
export const CONTEXT_STORE_KEY_AVAILABLE_FEE = 'CONTEXT_STORE_KEY_AVAILABLE_FEE';
/** contextStore key of what is left of a cross-chain message's fee (a bigint). */
export const CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE = 'CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE';
/** contextStore flag the interoperability module sets while it processes a cross-chain message. */
export const CONTEXT_STORE_KEY_CCM_PROCESSING = 'CONTEXT_STORE_KEY_CCM_PROCESSING';

export const HASH_LENGTH = 32;
export const TOKEN_ID_LENGTH = 8;
