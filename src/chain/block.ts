import { type Schema, codec, objectSchema } from '../codec/index.js';
import { InvalidBlockError, ValidationError } from '../errors.js';
import { merkleRoot } from '../merkle/index.js';
import { type BlockAsset, BlockAssets } from './block-assets.js';
import { BLOCK_VERSION, BlockHeader, type BlockHeaderJSON } from './block-header.js';
import { blockAssetSchema, blockSchema, transactionSchema } from './schemas.js';
import { Transaction, type TransactionJSON, type TransactionProps } from './transaction.js';

interface EncodedBlock {
  header: Buffer;
  transactions: Buffer[];
  assets: Buffer[];
}

/**
 * The block schema with each transaction and asset read in place as an object of its own schema:
 * the same bytes (a length-delimited field either way), decoded in one pass instead of a list of
 * encodings decoded one by one. Only used through codec.decodeCanonicalViews: on any other input
 * the two readings can differ (an array of objects drops empty elements, and errors would name
 * other paths), so such input takes the two steps.
 */
const blockInOnePassSchema: Schema = objectSchema('/block/one-pass', {
  header: blockSchema.properties.header,
  transactions: {
    type: 'array',
    fieldNumber: 2,
    items: { type: 'object', required: transactionSchema.required, properties: transactionSchema.properties },
  },
  assets: {
    type: 'array',
    fieldNumber: 3,
    items: { type: 'object', required: blockAssetSchema.required, properties: blockAssetSchema.properties },
  },
});

interface DecodedBlock {
  header: Buffer;
  transactions: TransactionProps[];
  assets: BlockAsset[];
}

export interface BlockJSON {
  header: BlockHeaderJSON;
  transactions: TransactionJSON[];
  assets: { module: string; data: string }[];
}

/** A copy of `bytes` (anything else is passed on, for the decoder to reject). */
function privateCopy(bytes: Uint8Array): Uint8Array {
  if (!(bytes instanceof Uint8Array)) return bytes;
  const copy = Buffer.allocUnsafe(bytes.length);
  copy.set(bytes);
  return copy;
}

/**
 * A block: header, transactions and assets (docs/protocol/blocks-and-transactions.md). Decoding a
 * block and encoding it again gives the identical bytes for every block lisk-sdk produces.
 */
export class Block {
  constructor(
    readonly header: BlockHeader,
    readonly transactions: readonly Transaction[],
    readonly assets: BlockAssets,
  ) {}

  static fromBytes(bytes: Uint8Array): Block {
    // One copy of the whole block, private to the decoded objects: every bytes field of the
    // transactions and assets is a view into it, since hundreds of small copies cost more than
    // one large one. The price is that a transaction kept alone keeps the block's copy alive.
    // The header, often kept after its block (the tip, consensus), gets copies of its fields.
    const copy = privateCopy(bytes);
    const decoded = codec.decodeCanonicalViews<DecodedBlock>(blockInOnePassSchema, copy);
    if (decoded !== undefined) {
      return new Block(
        BlockHeader.fromBytes(decoded.header),
        decoded.transactions.map((tx) => new Transaction(tx, 'adopt-signatures')),
        new BlockAssets(decoded.assets),
      );
    }
    const encoded = codec.decodeViews<EncodedBlock>(blockSchema, copy);
    return new Block(
      BlockHeader.fromBytes(encoded.header),
      encoded.transactions.map((tx) => Transaction.fromSharedBytes(tx)),
      BlockAssets.fromSharedBytes(encoded.assets),
    );
  }

  get bytes(): Buffer {
    return codec.encode(blockSchema, {
      header: this.header.bytes,
      transactions: this.transactions.map((tx) => tx.bytes),
      assets: this.assets.encoded(),
    });
  }

  /** Sum of the encoded transaction sizes, bounded by the genesis config's maxTransactionsSize. */
  transactionsSize(): number {
    return this.transactions.reduce((sum, tx) => sum + tx.size, 0);
  }

  computeTransactionRoot(): Buffer {
    return merkleRoot(this.transactions.map((tx) => tx.id));
  }

  /**
   * Static validation of a non-genesis block (lisk-chain Block.validate + Chain.validateBlock):
   * header, transactions, assets, roots, version and total transaction size.
   */
  validate(maxTransactionsSize: number): void {
    const { height } = this.header;
    this.header.validate();
    for (const tx of this.transactions) {
      try {
        tx.validate();
      } catch (error) {
        if (error instanceof ValidationError) {
          throw new InvalidBlockError('transaction-invalid', `Transaction ${tx.id.toString('hex')}: ${error.message}`, height);
        }
        throw error;
      }
    }
    this.assets.validate(height);
    if (!this.header.transactionRoot.equals(this.computeTransactionRoot())) {
      throw new InvalidBlockError('transaction-root', 'Invalid transaction root.', height);
    }
    if (!this.header.assetRoot.equals(this.assets.root())) {
      throw new InvalidBlockError('asset-root', 'Invalid asset root.', height);
    }
    if (this.header.version !== BLOCK_VERSION) {
      throw new InvalidBlockError('version', `Block version must be ${BLOCK_VERSION}.`, height);
    }
    const size = this.transactionsSize();
    if (size > maxTransactionsSize) {
      throw new InvalidBlockError(
        'transactions-size',
        `Transactions take ${size} bytes, more than the configured ${maxTransactionsSize}.`,
        height,
      );
    }
  }

  /** Static validation of a genesis block (lisk-chain Block.validateGenesis, LIP 0060). */
  validateGenesis(): void {
    this.header.validateGenesis();
    if (this.transactions.length !== 0) {
      throw new InvalidBlockError('transaction-invalid', 'A genesis block has no transactions.', this.header.height);
    }
    this.assets.validateGenesis(this.header.height);
    if (!this.header.assetRoot.equals(this.assets.root())) {
      throw new InvalidBlockError('asset-root', 'Invalid asset root.', this.header.height);
    }
  }

  toJSON(): BlockJSON {
    return {
      header: this.header.toJSON(),
      transactions: this.transactions.map((tx) => tx.toJSON()),
      assets: this.assets.toJSON(),
    };
  }
}
