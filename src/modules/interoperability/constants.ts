/** Constants of the interoperability module (LIP 0045; lisk-sdk modules/interoperability/constants.ts). */
import { sha256 } from '../../crypto/sha256.js';

export const INTEROPERABILITY_MODULE_NAME = 'interoperability';

/**
 * The module's store prefix. Unlike every other module it is sha256('interoperability')[0..4)
 * WITHOUT the top bit cleared (LIP 0045), so that sidechains can prove mainchain outbox roots
 * under a fixed key; the dev chain's state confirms 83ed0d25.
 */
export const INTEROPERABILITY_STORE_PREFIX: Buffer = Buffer.from([0x83, 0xed, 0x0d, 0x25]);

export const CHAIN_NAME_MAINCHAIN = 'lisk_mainchain';
export const EMPTY_BYTES: Buffer = Buffer.alloc(0);
export const EMPTY_HASH: Buffer = sha256(EMPTY_BYTES);
/** The fee address of internally sent messages (no sender pays). */
export const EMPTY_FEE_ADDRESS: Buffer = Buffer.alloc(0);

/** Fee of a sidechain registration, in beddows (10 LSK). */
export const CHAIN_REGISTRATION_FEE = 1_000_000_000n;
/** minReturnFeePerByte of every mainchain channel, in beddows. */
export const MIN_RETURN_FEE_PER_BYTE_BEDDOWS = 1000n;

export const MAX_NUM_VALIDATORS = 199;
export const MIN_CHAIN_NAME_LENGTH = 1;
export const MAX_CHAIN_NAME_LENGTH = 32;
export const MIN_MODULE_NAME_LENGTH = 1;
export const MAX_MODULE_NAME_LENGTH = 32;
export const MIN_CROSS_CHAIN_COMMAND_NAME_LENGTH = 1;
export const MAX_CROSS_CHAIN_COMMAND_NAME_LENGTH = 32;
export const CHAIN_ID_LENGTH = 4;
export const TOKEN_ID_LENGTH = 8;
export const HASH_LENGTH = 32;
export const BLS_PUBLIC_KEY_LENGTH = 48;
export const SUBSTORE_PREFIX_LENGTH = 2;
export const MAX_CCM_SIZE = 10_240;
export const MAX_UINT32 = 0xffff_ffff;
export const MAX_UINT64 = 2n ** 64n - 1n;
/** Seconds without a certificate after which an active sidechain is no longer live (28 days). */
export const LIVENESS_LIMIT = 2_419_200;
/** Error statuses below this bound are reserved to the interoperability module. */
export const MAX_RESERVED_ERROR_STATUS = 63;

/** Chain status of a chain account (LIP 0045). */
export const ChainStatus = Object.freeze({ REGISTERED: 0, ACTIVE: 1, TERMINATED: 2 });

/** Status of a cross-chain message (lisk-sdk CCMStatusCode). */
export const CCM_STATUS_OK = 0;

/** Codes of the ccmSentFailed event (lisk-sdk CCMSentFailedCode). */
export const CcmSentFailedCode = Object.freeze({
  CHANNEL_UNAVAILABLE: 1,
  MESSAGE_FEE_EXCEPTION: 11,
  INVALID_PARAMS: 12,
  INVALID_FORMAT: 13,
  INVALID_RECEIVING_CHAIN: 14,
});

export const CROSS_CHAIN_COMMAND_REGISTRATION = 'registration';
export const CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED = 'channelTerminated';

/** Characters allowed in chain names (LIP 0043). */
export const VALID_NAME_CHARS = 'a-z0-9!@$&_.';
