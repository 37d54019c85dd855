import { codec } from '../codec/index.js';
import { transactionSchema } from './schemas.js';
import { uint64VarintLength } from './varint-length.js';

/** lisk-transactions DEFAULT_MIN_FEE_PER_BYTE (beddows per byte). */
export const DEFAULT_MIN_FEE_PER_BYTE = 1000;
/** Size of the placeholder signature counted for every signer. */
const SIGNATURE_LENGTH = 64;

/** The fields of a transaction that its size depends on (fee and signatures are supplied here). */
export interface MinFeeTransaction {
  readonly module: string;
  readonly command: string;
  readonly nonce: bigint;
  readonly senderPublicKey: Buffer;
  /** The encoded command params. */
  readonly params: Buffer;
}

export interface MinFeeOptions {
  /** Default DEFAULT_MIN_FEE_PER_BYTE. */
  readonly minFeePerByte?: number;
  /** Signatures of 64 bytes the final transaction will carry; default 1. */
  readonly numberOfSignatures?: number;
  /** Empty signatures (unsigned optional multisignature members); default 0. */
  readonly numberOfEmptySignatures?: number;
  /** Extra fee on top of the byte fee, e.g. an account initialisation fee; default 0. */
  readonly additionalFee?: bigint;
}

/**
 * The client-side minimum fee (lisk-transactions computeMinFee): the byte fee of
 * the transaction as it will be sent (with `numberOfSignatures` 64-byte and
 * `numberOfEmptySignatures` empty signatures) plus `additionalFee`. The fee field is part of the
 * size, so the fee is raised until its own varint length stops growing. The node's check
 * (minFeePerByte × size of the real bytes) then accepts a transaction carrying this fee.
 */
export function computeMinFee(transaction: MinFeeTransaction, options: MinFeeOptions = {}): bigint {
  const minFeePerByte = options.minFeePerByte ?? DEFAULT_MIN_FEE_PER_BYTE;
  const additionalFee = options.additionalFee ?? 0n;
  const signatures: Buffer[] = [
    ...new Array<Buffer>(options.numberOfSignatures ?? 1).fill(Buffer.alloc(SIGNATURE_LENGTH)),
    ...new Array<Buffer>(options.numberOfEmptySignatures ?? 0).fill(Buffer.alloc(0)),
  ];
  // Encode once with fee 0 (a one-byte varint); every other fee only changes that varint's length.
  const sizeWithoutFee =
    codec.encode(transactionSchema, {
      module: transaction.module,
      command: transaction.command,
      nonce: transaction.nonce,
      fee: 0n,
      senderPublicKey: transaction.senderPublicKey,
      params: transaction.params,
      signatures,
    }).length - 1;

  let fee: bigint;
  let minFee = additionalFee;
  do {
    fee = minFee;
    const size = sizeWithoutFee + uint64VarintLength(fee);
    minFee = BigInt(size * minFeePerByte) + additionalFee;
  } while (minFee > fee);
  return minFee;
}
