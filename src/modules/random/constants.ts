/** Constants of the random module (lisk-sdk framework/src/modules/random/constants.ts, LIP 0046). */

export const RANDOM_MODULE_NAME = 'random';

/** lisk-sdk MAX_LENGTH_REVEALS (LIP 0063 DEFAULT_MAX_LENGTH_REVEALS): two rounds of 103 reveals. */
export const DEFAULT_MAX_LENGTH_REVEALS = 206;
export const SEED_LENGTH = 16;
export const ADDRESS_LENGTH = 20;

/** Largest hash onion `random_setHashOnion` computes itself (also its default count). */
export const MAX_HASH_COMPUTATION = 10_000;
/** Default checkpoint distance of `random_setHashOnion`. */
export const DEFAULT_HASH_ONION_DISTANCE = 1000;

/** The key of the single validatorReveals entry. */
export const EMPTY_KEY: Buffer = Buffer.alloc(0);

/** Version of the random block asset (the block header version it belongs to). */
export const RANDOM_ASSET_VERSION = 2;
