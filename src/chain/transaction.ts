import { codec, validate } from '../codec/index.js';
import { addressFromPublicKey, sha256 } from '../crypto/index.js';
import { ValidationError } from '../errors.js';
import { transactionSchema } from './schemas.js';
import { varintLength } from './varint-length.js';

/** lisk-sdk MAX_PARAMS_SIZE: params above 14 KiB make a transaction invalid. */
export const MAX_PARAMS_SIZE = 14 * 1024;
/** Module and command names: letters and digits only (lisk-sdk NAME_REGEX). */
export const NAME_PATTERN = /^[a-zA-Z0-9]*$/;

/** The encoded fields of a transaction, the ones its schema lists (declared once, in the class). */
export type TransactionProps = Pick<Transaction, 'module' | 'command' | 'nonce' | 'fee' | 'senderPublicKey' | 'params' | 'signatures'>;

/** The JSON form of a transaction (lisk-chain Transaction.toJSON), keys in lisk-sdk's order. */
export interface TransactionJSON {
  module: string;
  command: string;
  params: string;
  nonce: string;
  fee: string;
  senderPublicKey: string;
  signatures: string[];
  id: string;
}

/**
 * A v6 transaction (LIP 0068; docs/protocol/blocks-and-transactions.md). Immutable: the encoding,
 * ID and sender address are computed once on first use. The ID is the hash of the canonical
 * re-encoding, so a transaction decoded from a tolerated non-canonical encoding still gets the
 * reference ID.
 */
export class Transaction {
  readonly module: string;
  readonly command: string;
  readonly nonce: bigint;
  readonly fee: bigint;
  readonly senderPublicKey: Buffer;
  readonly params: Buffer;
  readonly signatures: readonly Buffer[];
  private encoded: Buffer | undefined;
  private cachedId: Buffer | undefined;
  private cachedAddress: Buffer | undefined;

  /**
   * `signatures` is copied, so that the caller's array can change afterwards, unless `adopt` says
   * it is a fresh array nobody else holds (a decoded one): copying it was a tenth of decoding.
   */
  constructor(props: TransactionProps, adopt: 'copy' | 'adopt-signatures' = 'copy') {
    this.module = props.module;
    this.command = props.command;
    this.nonce = props.nonce;
    this.fee = props.fee;
    this.senderPublicKey = props.senderPublicKey;
    this.params = props.params;
    this.signatures = adopt === 'copy' ? [...props.signatures] : props.signatures;
  }

  static fromBytes(bytes: Uint8Array): Transaction {
    return new Transaction(codec.decode<TransactionProps>(transactionSchema, bytes), 'adopt-signatures');
  }

  /**
   * As `fromBytes`, but the bytes fields are views into `bytes` instead of copies: for memory the
   * caller hands over and never changes again (a block's private copy, see Block.fromBytes).
   */
  static fromSharedBytes(bytes: Uint8Array): Transaction {
    return new Transaction(codec.decodeViews<TransactionProps>(transactionSchema, bytes), 'adopt-signatures');
  }

  static fromJSON(json: Omit<TransactionJSON, 'id'> & { id?: string }): Transaction {
    return new Transaction(codec.fromJSON<TransactionProps>(transactionSchema, json));
  }

  get bytes(): Buffer {
    this.encoded ??= codec.encode(transactionSchema, this.props());
    return this.encoded;
  }

  get id(): Buffer {
    this.cachedId ??= sha256(this.bytes);
    return this.cachedId;
  }

  get size(): number {
    return this.bytes.length;
  }

  senderAddress(): Buffer {
    this.cachedAddress ??= addressFromPublicKey(this.senderPublicKey);
    return this.cachedAddress;
  }

  /**
   * The encoding without signatures: what every signer signs under the LSK_TX_ tag.
   * Signatures are the last field (7), so this is a prefix of the full encoding.
   */
  signingBytes(): Buffer {
    let signaturesLength = 0;
    for (const signature of this.signatures) signaturesLength += 1 + varintLength(signature.length) + signature.length;
    return this.bytes.subarray(0, this.bytes.length - signaturesLength);
  }

  /** A copy with the given signatures (transactions are immutable). */
  withSignatures(signatures: readonly Buffer[]): Transaction {
    return new Transaction({ ...this.props(), signatures });
  }

  /**
   * Static validity (lisk-chain Transaction.validate): schema limits, names, params size, and
   * at least one signature, each empty or 64 bytes. Throws ValidationError listing the problems.
   */
  validate(): void {
    validate(transactionSchema, this.props());
    const problems: string[] = [];
    if (!NAME_PATTERN.test(this.module)) problems.push(`.module: invalid module name ${JSON.stringify(this.module)}`);
    if (!NAME_PATTERN.test(this.command)) problems.push(`.command: invalid command name ${JSON.stringify(this.command)}`);
    if (this.params.length > MAX_PARAMS_SIZE) problems.push(`.params: exceeds the maximum size of ${MAX_PARAMS_SIZE} bytes`);
    if (this.signatures.length === 0) problems.push('.signatures: must not be empty');
    this.signatures.forEach((signature, i) => {
      if (signature.length !== 0 && signature.length !== 64) {
        problems.push(`.signatures[${i}]: must be empty or 64 bytes`);
      }
    });
    if (problems.length > 0) throw new ValidationError(problems);
  }

  /**
   * The JSON form: bytes as hex, uint64 as decimal strings, plus `id`. Keys
   * come in lisk-sdk's order so a serialized answer is byte-identical to the reference node's.
   */
  toJSON(): TransactionJSON {
    return {
      module: this.module,
      command: this.command,
      params: this.params.toString('hex'),
      nonce: this.nonce.toString(),
      fee: this.fee.toString(),
      senderPublicKey: this.senderPublicKey.toString('hex'),
      signatures: this.signatures.map((signature) => signature.toString('hex')),
      id: this.id.toString('hex'),
    };
  }

  private props(): TransactionProps {
    return {
      module: this.module,
      command: this.command,
      nonce: this.nonce,
      fee: this.fee,
      senderPublicKey: this.senderPublicKey,
      params: this.params,
      signatures: this.signatures,
    };
  }
}
