/**
 * Constants of Lisk Core v4's legacy module (lisk-core
 * src/application/modules/legacy/constants.ts).
 */
import { sha256 } from '../../crypto/index.js';

export const LEGACY_MODULE_NAME = 'legacy';

export const COMMAND_RECLAIM_LSK = 'reclaimLSK';
export const COMMAND_REGISTER_KEYS = 'registerKeys';

/** A pre-v4 address as the legacy store keys it: 8 bytes. */
export const LEGACY_ADDRESS_LENGTH = 8;
export const ADDRESS_LENGTH = 20;
export const GENERATOR_KEY_LENGTH = 32;
export const BLS_KEY_LENGTH = 48;
export const PROOF_OF_POSSESSION_LENGTH = 96;

/**
 * The account that holds every unreclaimed LSK, locked under module `legacy`:
 * SHA-256("legacyReserve")[0..20) = 02e87c66…fbac (lskz5kn2akhood3cgpaf6a95ra85xfa9fhokvx4du).
 */
export const ADDRESS_LEGACY_RESERVE: Buffer = sha256(Buffer.from('legacyReserve', 'utf8')).subarray(0, ADDRESS_LENGTH);

/** The BLS key of a validator migrated from v3 that has not registered keys yet: 48 zero bytes. */
export const INVALID_BLS_KEY: Buffer = Buffer.alloc(BLS_KEY_LENGTH);

/** The genesis legacy balances must sum to strictly less than this (lisk-core LEGACY_ACC_MAX_TOTAL_BAL_NON_INC). */
export const LEGACY_TOTAL_BALANCE_LIMIT = 2n ** 64n;

/**
 * Default `tokenIDReclaim` (mainnet LSK). Only its local part (last 8 hex digits) is used: init
 * replaces the first 8 hex digits with the chain's own ID.
 */
export const DEFAULT_TOKEN_ID_RECLAIM = '0000000000000000';
