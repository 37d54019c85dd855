import { codec, encodeLisk32Address, validate } from '../codec/index.js';
import { EMPTY_HASH, MESSAGE_TAG_BLOCK_HEADER, sha256, verifyData } from '../crypto/index.js';
import { InvalidBlockError, ValidationError } from '../errors.js';
import { blockHeaderSchema } from './schemas.js';
import { varintLength } from './varint-length.js';

export interface AggregateCommit {
  readonly height: number;
  readonly aggregationBits: Buffer;
  readonly certificateSignature: Buffer;
}

/** The encoded fields of a header, the ones its schema lists (declared once, in the class). */
export type BlockHeaderProps = Pick<
  BlockHeader,
  | 'version'
  | 'timestamp'
  | 'height'
  | 'previousBlockID'
  | 'generatorAddress'
  | 'transactionRoot'
  | 'assetRoot'
  | 'eventRoot'
  | 'stateRoot'
  | 'maxHeightPrevoted'
  | 'maxHeightGenerated'
  | 'impliesMaxPrevotes'
  | 'validatorsHash'
  | 'aggregateCommit'
  | 'signature'
>;

/**
 * The JSON form of a header as RPC returns it: codec JSON plus `id`, keys in
 * lisk-sdk's order (lisk-chain BlockHeader.toJSON).
 */
export interface BlockHeaderJSON {
  version: number;
  timestamp: number;
  height: number;
  previousBlockID: string;
  stateRoot: string;
  assetRoot: string;
  eventRoot: string;
  transactionRoot: string;
  validatorsHash: string;
  aggregateCommit: { height: number; aggregationBits: string; certificateSignature: string };
  generatorAddress: string;
  maxHeightPrevoted: number;
  maxHeightGenerated: number;
  impliesMaxPrevotes: boolean;
  signature: string;
  id: string;
}

/** Signature length of a non-genesis header (Ed25519). */
export const HEADER_SIGNATURE_LENGTH = 64;
/** Block version of every non-genesis block (lisk-sdk 6.x). */
export const BLOCK_VERSION = 2;

/**
 * A v6 block header (LIP 0055; docs/protocol/blocks-and-transactions.md). Immutable; the encoding
 * and ID are computed on first use. The ID hashes the canonical re-encoding, as lisk-chain does.
 */
export class BlockHeader {
  readonly version: number;
  readonly timestamp: number;
  readonly height: number;
  readonly previousBlockID: Buffer;
  readonly generatorAddress: Buffer;
  readonly transactionRoot: Buffer;
  readonly assetRoot: Buffer;
  readonly eventRoot: Buffer;
  readonly stateRoot: Buffer;
  readonly maxHeightPrevoted: number;
  readonly maxHeightGenerated: number;
  readonly impliesMaxPrevotes: boolean;
  readonly validatorsHash: Buffer;
  readonly aggregateCommit: AggregateCommit;
  readonly signature: Buffer;
  private encoded: Buffer | undefined;
  private cachedId: Buffer | undefined;

  constructor(props: BlockHeaderProps) {
    this.version = props.version;
    this.timestamp = props.timestamp;
    this.height = props.height;
    this.previousBlockID = props.previousBlockID;
    this.generatorAddress = props.generatorAddress;
    this.transactionRoot = props.transactionRoot;
    this.assetRoot = props.assetRoot;
    this.eventRoot = props.eventRoot;
    this.stateRoot = props.stateRoot;
    this.maxHeightPrevoted = props.maxHeightPrevoted;
    this.maxHeightGenerated = props.maxHeightGenerated;
    this.impliesMaxPrevotes = props.impliesMaxPrevotes;
    this.validatorsHash = props.validatorsHash;
    this.aggregateCommit = props.aggregateCommit;
    this.signature = props.signature;
  }

  static fromBytes(bytes: Uint8Array): BlockHeader {
    return new BlockHeader(codec.decode<BlockHeaderProps>(blockHeaderSchema, bytes));
  }

  /** From the JSON form (`id`, if present, is ignored: the ID is always recomputed). */
  static fromJSON(json: BlockHeaderJSON | Omit<BlockHeaderJSON, 'id'> | Record<string, unknown>): BlockHeader {
    const { id: _id, ...rest } = json as Record<string, unknown>;
    return new BlockHeader(codec.fromJSON<BlockHeaderProps>(blockHeaderSchema, rest));
  }

  get bytes(): Buffer {
    this.encoded ??= codec.encode(blockHeaderSchema, this.props());
    return this.encoded;
  }

  get id(): Buffer {
    this.cachedId ??= sha256(this.bytes);
    return this.cachedId;
  }

  /**
   * The encoding without the signature (`/block/header/signing/3`): what the generator signs
   * under LSK_BH_. The signature is the last field (15, key 0x7a) and the
   * canonical encoding always carries it, so this is a prefix of `bytes` and needs no encoding.
   */
  signingBytes(): Buffer {
    const signatureFieldLength = 1 + varintLength(this.signature.length) + this.signature.length;
    return this.bytes.subarray(0, this.bytes.length - signatureFieldLength);
  }

  /** A copy with other fields (used by block generation to fill roots and the signature). */
  with(changes: Partial<BlockHeaderProps>): BlockHeader {
    return new BlockHeader({ ...this.props(), ...changes });
  }

  isSignatureValid(generatorKey: Buffer, chainID: Buffer): boolean {
    return verifyData(MESSAGE_TAG_BLOCK_HEADER, chainID, this.signingBytes(), this.signature, generatorKey);
  }

  /** Static checks of a non-genesis header (lisk-chain BlockHeader.validate). */
  validate(): void {
    this.validateSchema();
    if (this.previousBlockID.length === 0) {
      throw new InvalidBlockError('schema', 'Previous block id must not be empty.', this.height);
    }
    if (this.signature.length !== HEADER_SIGNATURE_LENGTH) {
      throw new InvalidBlockError('schema', `Signature length must be ${HEADER_SIGNATURE_LENGTH} bytes.`, this.height);
    }
  }

  /**
   * Static checks of a genesis header (lisk-chain BlockHeader.validateGenesis, LIP 0060).
   * Throws InvalidBlockError (reason 'schema') listing every violated rule, as Block.validate does
   * for non-genesis blocks, so callers handle one error type for any refused block.
   */
  validateGenesis(): void {
    this.validateSchema();
    const problems: string[] = [];
    const empty = (b: Buffer): boolean => b.length === 0;
    if (this.previousBlockID.length !== 32) problems.push('.previousBlockID: must be 32 bytes');
    if (!this.generatorAddress.equals(Buffer.alloc(20))) problems.push('.generatorAddress: must be 20 zero bytes');
    if (!this.transactionRoot.equals(EMPTY_HASH)) problems.push('.transactionRoot: must be the empty hash');
    if (this.maxHeightPrevoted !== this.height) problems.push('.maxHeightPrevoted: must equal height');
    if (this.maxHeightGenerated !== 0) problems.push('.maxHeightGenerated: must be 0');
    if (!this.impliesMaxPrevotes) problems.push('.impliesMaxPrevotes: must be true');
    if (this.aggregateCommit.height !== this.height) problems.push('.aggregateCommit.height: must equal height');
    if (!empty(this.aggregateCommit.certificateSignature)) problems.push('.aggregateCommit.certificateSignature: must be empty');
    if (!empty(this.aggregateCommit.aggregationBits)) problems.push('.aggregateCommit.aggregationBits: must be empty');
    if (!empty(this.signature)) problems.push('.signature: must be empty');
    if (problems.length > 0) {
      throw new InvalidBlockError('schema', `Invalid genesis block header: ${problems.join('; ')}`, this.height);
    }
  }

  /** The JSON form, keys in lisk-sdk's order for byte-identical answers. */
  toJSON(): BlockHeaderJSON {
    const { aggregateCommit } = this;
    return {
      version: this.version,
      timestamp: this.timestamp,
      height: this.height,
      previousBlockID: this.previousBlockID.toString('hex'),
      stateRoot: this.stateRoot.toString('hex'),
      assetRoot: this.assetRoot.toString('hex'),
      eventRoot: this.eventRoot.toString('hex'),
      transactionRoot: this.transactionRoot.toString('hex'),
      validatorsHash: this.validatorsHash.toString('hex'),
      aggregateCommit: {
        height: aggregateCommit.height,
        aggregationBits: aggregateCommit.aggregationBits.toString('hex'),
        certificateSignature: aggregateCommit.certificateSignature.toString('hex'),
      },
      generatorAddress: encodeLisk32Address(this.generatorAddress),
      maxHeightPrevoted: this.maxHeightPrevoted,
      maxHeightGenerated: this.maxHeightGenerated,
      impliesMaxPrevotes: this.impliesMaxPrevotes,
      signature: this.signature.toString('hex'),
      id: this.id.toString('hex'),
    };
  }

  props(): BlockHeaderProps {
    return {
      version: this.version,
      timestamp: this.timestamp,
      height: this.height,
      previousBlockID: this.previousBlockID,
      generatorAddress: this.generatorAddress,
      transactionRoot: this.transactionRoot,
      assetRoot: this.assetRoot,
      eventRoot: this.eventRoot,
      stateRoot: this.stateRoot,
      maxHeightPrevoted: this.maxHeightPrevoted,
      maxHeightGenerated: this.maxHeightGenerated,
      impliesMaxPrevotes: this.impliesMaxPrevotes,
      validatorsHash: this.validatorsHash,
      aggregateCommit: this.aggregateCommit,
      signature: this.signature,
    };
  }

  private validateSchema(): void {
    try {
      validate(blockHeaderSchema, this.props());
    } catch (error) {
      if (error instanceof ValidationError) throw new InvalidBlockError('schema', error.message, this.height);
      throw error;
    }
  }
}
