/** Constants of the validators module (lisk-sdk framework/src/modules/validators/constants.ts, LIP 0044). */

export const VALIDATORS_MODULE_NAME = 'validators';

export const ADDRESS_LENGTH = 20;
export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const BLS_PUBLIC_KEY_LENGTH = 48;
export const BLS_POP_LENGTH = 96;

/**
 * The BLS key given to validators registered without one (Lisk Core v4 migration): 48 zero bytes,
 * which is not a valid G1 point, so any signature under it fails.
 */
export const INVALID_BLS_KEY: Buffer = Buffer.alloc(BLS_PUBLIC_KEY_LENGTH);

/** The key of the single validatorsParams entry. */
export const EMPTY_KEY: Buffer = Buffer.alloc(0);

/** `result` of the key registration events (lisk-sdk KeyRegResult). */
export const KeyRegResult = {
  SUCCESS: 0,
  NO_VALIDATOR: 1,
  ALREADY_VALIDATOR: 2,
  DUPLICATE_BLS_KEY: 3,
  INVALID_POP: 4,
} as const;

export type KeyRegResult = (typeof KeyRegResult)[keyof typeof KeyRegResult];
