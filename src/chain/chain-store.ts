import type { Database, RootDatabase } from 'lmdb';
import { codec, objectSchema, type Schema } from '../codec/index.js';
import { NotFoundError, StoreError } from '../errors.js';
import { BlockAssets } from './block-assets.js';
import { BlockHeader } from './block-header.js';
import { Block } from './block.js';
import { decodeEvent, encodeEvent, type EventProps } from './event.js';
import { blockSchema } from './schemas.js';
import { Transaction } from './transaction.js';

/** Lists of encoded items stored under one key (assets, events, transaction IDs of a block). */
const bytesListSchema: Schema = objectSchema('/basalt/store/bytesList', {
  items: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } },
});

const TIP_HEIGHT_KEY = Buffer.from('tipHeight');
const FINALIZED_HEIGHT_KEY = Buffer.from('finalizedHeight');
const GENESIS_HEIGHT_KEY = Buffer.from('genesisHeight');
/** Heights are uint32 (header field 3). */
const MAX_HEIGHT = 0xffff_ffff;

/**
 * Blocks deleted so far in this process, per environment, whichever ChainStore over it deleted
 * them (see `ChainStore.blockDeletions`).
 */
const deletionsByEnv = new WeakMap<RootDatabase, { count: number }>();

function heightKey(height: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(height);
  return key;
}

function encodeList(items: readonly Buffer[]): Buffer {
  return codec.encode(bytesListSchema, { items });
}

function decodeList(bytes: Buffer): Buffer[] {
  return codec.decode<{ items: Buffer[] }>(bytesListSchema, bytes).items;
}

type Table = Database<Buffer, Buffer>;

/**
 * Where a block's writes go (StateDb's `WriteSink`, the same shape): by default straight into the
 * write transaction open on this thread; the block path hands in the sink of its asynchronous
 * transaction, so that the block, its events and its state are one LMDB transaction either way.
 */
export interface BlockWriteSink {
  put(table: Table, key: Buffer, value: Buffer): void;
  remove(table: Table, key: Buffer): void;
}

const WRITE_IN_OPEN_TRANSACTION: BlockWriteSink = {
  put: (table, key, value) => {
    table.putSync(key, value);
  },
  remove: (table, key) => {
    table.removeSync(key);
  },
};

/**
 * The chain store (blocks, height index, transactions, assets, events, finalized height) in named
 * databases of the node's one LMDB environment. Writes happen inside the caller's LMDB
 * transaction (`env.transactionSync`, or the write set of StateDb.transactionAsync) so a block,
 * its events and its state commit atomically.
 * Keys by height are big-endian, so appending blocks writes in ascending key order.
 */
export class ChainStore {
  private readonly headers: Database<Buffer, Buffer>;
  private readonly heightsById: Database<Buffer, Buffer>;
  private readonly transactionIdsByHeight: Database<Buffer, Buffer>;
  private readonly transactions: Database<Buffer, Buffer>;
  private readonly assets: Database<Buffer, Buffer>;
  private readonly events: Database<Buffer, Buffer>;
  private readonly meta: Database<Buffer, Buffer>;
  private readonly deletions: { count: number };

  constructor(env: RootDatabase) {
    const open = (name: string): Database<Buffer, Buffer> =>
      env.openDB<Buffer, Buffer>(name, { keyEncoding: 'binary', encoding: 'binary' });
    this.headers = open('chain.headers');
    this.heightsById = open('chain.heightsById');
    this.transactionIdsByHeight = open('chain.transactionIdsByHeight');
    this.transactions = open('chain.transactions');
    this.assets = open('chain.assets');
    this.events = open('chain.events');
    this.meta = open('chain.meta');
    let deletions = deletionsByEnv.get(env);
    if (deletions === undefined) {
      deletions = { count: 0 };
      deletionsByEnv.set(env, deletions);
    }
    this.deletions = deletions;
  }

  /**
   * How many blocks this process has deleted from the store (reverts), counted as each deletion
   * starts, whether or not its transaction then commits. While the count is the one seen when a
   * block was read, that block is still stored: a reader's cache can trust its entries without a
   * read of the ID index per hit. Blocks are only deleted through `deleteTipBlock`, by the one
   * process that holds the data directory.
   */
  get blockDeletions(): number {
    return this.deletions.count;
  }

  /** Whether any block (the genesis block at least) is stored. */
  isEmpty(): boolean {
    return this.readHeight(TIP_HEIGHT_KEY) === undefined;
  }

  tipHeight(): number {
    const height = this.readHeight(TIP_HEIGHT_KEY);
    if (height === undefined) throw new NotFoundError('The chain store holds no block.');
    return height;
  }

  genesisHeight(): number {
    const height = this.readHeight(GENESIS_HEIGHT_KEY);
    if (height === undefined) throw new NotFoundError('The chain store holds no genesis block.');
    return height;
  }

  finalizedHeight(): number {
    return this.readHeight(FINALIZED_HEIGHT_KEY) ?? this.genesisHeight();
  }

  /**
   * Writes a block with its events; call inside the environment's write transaction, or hand in
   * the sink of the transaction being built (`writes`).
   * `encodedEvents`: the events' encodings when the caller already has them (the event root
   * needed them), so that they are not encoded twice.
   */
  saveBlock(
    block: Block,
    events: readonly EventProps[],
    finalizedHeight: number,
    encodedEvents?: readonly Buffer[],
    writes: BlockWriteSink = WRITE_IN_OPEN_TRANSACTION,
  ): void {
    const { height } = block.header;
    const key = heightKey(height);
    // Read before anything is written: with a collecting sink, reads see the store before the block.
    const first = this.isEmpty();
    writes.put(this.headers, key, block.header.bytes);
    writes.put(this.heightsById, block.header.id, key);
    writes.put(this.transactionIdsByHeight, key, encodeList(block.transactions.map((tx) => tx.id)));
    for (const tx of block.transactions) writes.put(this.transactions, tx.id, tx.bytes);
    writes.put(this.assets, key, encodeList(block.assets.encoded()));
    writes.put(this.events, key, encodeList(encodedEvents ?? events.map((event) => encodeEvent(event))));
    if (first) writes.put(this.meta, GENESIS_HEIGHT_KEY, key);
    writes.put(this.meta, TIP_HEIGHT_KEY, key);
    writes.put(this.meta, FINALIZED_HEIGHT_KEY, heightKey(finalizedHeight));
  }

  /** Removes the tip block (a revert); call inside the environment's write transaction. */
  deleteTipBlock(): Block {
    const height = this.tipHeight();
    if (height === this.genesisHeight()) throw new StoreError('The genesis block cannot be deleted.');
    this.deletions.count += 1;
    const block = this.getBlockByHeight(height);
    const key = heightKey(height);
    this.headers.removeSync(key);
    this.heightsById.removeSync(block.header.id);
    this.transactionIdsByHeight.removeSync(key);
    for (const tx of block.transactions) this.transactions.removeSync(tx.id);
    this.assets.removeSync(key);
    this.events.removeSync(key);
    this.meta.putSync(TIP_HEIGHT_KEY, heightKey(height - 1));
    return block;
  }

  /** Drops stored events at and below `height` (system.keepEventsForHeights); `writes` as in saveBlock. */
  deleteEventsUpTo(height: number, writes: BlockWriteSink = WRITE_IN_OPEN_TRANSACTION): void {
    // A caller computing `tip - keepEventsForHeights` may pass a negative height: nothing to drop.
    if (height < 0) return;
    // Collect first: removing entries while a cursor walks the same range is not something to rely on.
    const range = height >= MAX_HEIGHT ? {} : { end: heightKey(height + 1) };
    const keys = [...this.events.getKeys(range)];
    for (const key of keys) writes.remove(this.events, key);
  }

  getHeaderByHeight(height: number): BlockHeader | undefined {
    const bytes = this.headers.getBinary(heightKey(height));
    return bytes ? BlockHeader.fromBytes(bytes) : undefined;
  }

  /**
   * The encoded block at `height` straight from the stored bytes, without decoding its header,
   * transactions or assets: what a peer gets for getBlocksFromId and getLastBlock, so serving
   * 103 full blocks costs reads and one encoding, not a decode and re-encode of each transaction.
   */
  getEncodedBlockByHeight(height: number): Buffer | undefined {
    const key = heightKey(height);
    const header = this.headers.getBinary(key);
    if (!header) return undefined;
    const transactions = decodeList(this.transactionIdsByHeight.getBinary(key) as Buffer).map((id) => {
      const bytes = this.transactions.getBinary(id);
      if (!bytes) throw new StoreError(`Store inconsistency: transaction ${id.toString('hex')} of height ${height} is missing.`);
      return bytes;
    });
    const assets = decodeList(this.assets.getBinary(key) as Buffer);
    return codec.encode(blockSchema, { header, transactions, assets });
  }

  getHeightById(id: Buffer): number | undefined {
    const key = this.heightsById.getBinary(id);
    return key ? key.readUInt32BE(0) : undefined;
  }

  getHeaderById(id: Buffer): BlockHeader | undefined {
    const height = this.getHeightById(id);
    return height === undefined ? undefined : this.getHeaderByHeight(height);
  }

  getBlockByHeight(height: number): Block {
    const header = this.getHeaderByHeight(height);
    if (!header) throw new NotFoundError(`Block at height ${height} does not exist.`);
    const key = heightKey(height);
    const ids = decodeList(this.transactionIdsByHeight.getBinary(key) as Buffer);
    const transactions = ids.map((id) => {
      const tx = this.getTransaction(id);
      if (!tx) throw new StoreError(`Store inconsistency: transaction ${id.toString('hex')} of height ${height} is missing.`);
      return tx;
    });
    const assets = BlockAssets.fromBytes(decodeList(this.assets.getBinary(key) as Buffer));
    return new Block(header, transactions, assets);
  }

  getBlockById(id: Buffer): Block | undefined {
    const height = this.getHeightById(id);
    return height === undefined ? undefined : this.getBlockByHeight(height);
  }

  getTransaction(id: Buffer): Transaction | undefined {
    const bytes = this.transactions.getBinary(id);
    return bytes ? Transaction.fromBytes(bytes) : undefined;
  }

  /** The events of a block, or undefined when they were pruned or the height is unknown. */
  getEvents(height: number): EventProps[] | undefined {
    const bytes = this.events.getBinary(heightKey(height));
    return bytes ? decodeList(bytes).map((item) => decodeEvent(item)) : undefined;
  }

  private readHeight(key: Buffer): number | undefined {
    const value = this.meta.getBinary(key);
    return value ? value.readUInt32BE(0) : undefined;
  }
}
