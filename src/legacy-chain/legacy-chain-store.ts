/**
 * The v3 history a Lisk Core v4 node keeps beside its chain ("legacy blocks", lisk-sdk v6.1.0
 * `framework/src/engine/legacy/storage.ts`), in one named database (`legacy`) of the node's LMDB
 * environment. lisk-sdk keeps the same records in its own `legacy.db`: the header bytes by block
 * ID, the block ID by height, the transaction IDs of each block, the transactions by ID and the
 * state of each bracket (keyed by its snapshot block ID). Basalt adds one record per bracket: how
 * far an import from a v3 database has come, so that a killed import resumes.
 *
 * Every write of several records happens in one LMDB transaction: a block is stored whole or not
 * at all, and a batch of blocks commits with the progress record that names its last block.
 */
import type { Database, RootDatabase } from 'lmdb';
import { codec } from '../codec/index.js';
import { encodeLegacyBlock, legacyTransactionId, decodeLegacyHeader, type LegacyBlock } from './legacy-block.js';
import { legacyBracketInfoSchema } from './schemas.js';

/** The stored state of a bracket (lisk-sdk `LegacyChainBracketInfo`). */
export interface LegacyBracketInfo {
  readonly startHeight: number;
  readonly snapshotBlockHeight: number;
  /** The lowest height held in an unbroken run down from the snapshot block. */
  readonly lastBlockHeight: number;
}

/** How far an ascending import into a bracket has come: its highest stored block. */
export interface LegacyImportCursor {
  readonly height: number;
  readonly id: Buffer;
}

/** A block to store, with the height its header carries. */
export interface LegacyBlockToStore extends LegacyBlock {
  readonly height: number;
}

const ID_LENGTH = 32;
const HEADER_BY_ID = 0x01;
// The same one-byte prefix lisk-sdk uses for bracket records (`DB_KEY_LEGACY_BRACKET`).
const BRACKET = 0x02;
const ID_BY_HEIGHT = 0x03;
const TRANSACTION_IDS_BY_BLOCK = 0x04;
const TRANSACTION_BY_ID = 0x05;
const IMPORT_CURSOR = 0x06;

function key(prefix: number, suffix: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(1 + suffix.length);
  out[0] = prefix;
  out.set(suffix, 1);
  return out;
}

function heightKey(height: number): Buffer {
  const out = Buffer.alloc(5);
  out[0] = ID_BY_HEIGHT;
  out.writeUInt32BE(height, 1);
  return out;
}

/** Splits a concatenation of 32-byte IDs. */
function splitIds(joined: Buffer): Buffer[] {
  const ids: Buffer[] = [];
  for (let offset = 0; offset + ID_LENGTH <= joined.length; offset += ID_LENGTH) {
    ids.push(Buffer.from(joined.subarray(offset, offset + ID_LENGTH)));
  }
  return ids;
}

export class LegacyChainStore {
  private readonly db: Database<Buffer, Buffer>;

  constructor(private readonly env: RootDatabase) {
    this.db = env.openDB<Buffer, Buffer>('legacy', { keyEncoding: 'binary', encoding: 'binary' });
  }

  /** The v3 header bytes of the block with this ID. */
  headerById(id: Uint8Array): Buffer | undefined {
    return this.db.get(key(HEADER_BY_ID, id));
  }

  blockIdAtHeight(height: number): Buffer | undefined {
    if (!Number.isInteger(height) || height < 0 || height > 0xffff_ffff) return undefined;
    return this.db.get(heightKey(height));
  }

  /**
   * The transactions of a stored block, in block order; undefined when no list is stored for that
   * ID. A listed transaction that is missing is left out, which never happens for blocks this
   * store wrote (a block and its transactions commit together).
   */
  transactionsOfBlock(blockId: Uint8Array): Buffer[] | undefined {
    const joined = this.db.get(key(TRANSACTION_IDS_BY_BLOCK, blockId));
    if (joined === undefined) return undefined;
    const transactions: Buffer[] = [];
    for (const id of splitIds(joined)) {
      const bytes = this.transactionById(id);
      if (bytes !== undefined) transactions.push(bytes);
    }
    return transactions;
  }

  transactionById(id: Uint8Array): Buffer | undefined {
    return this.db.get(key(TRANSACTION_BY_ID, id));
  }

  /** The block with this ID (a block without a stored transaction list has none, as in lisk-sdk). */
  blockById(id: Uint8Array): LegacyBlock | undefined {
    const header = this.headerById(id);
    if (header === undefined) return undefined;
    return { id: Buffer.from(id), header, payload: this.transactionsOfBlock(id) ?? [] };
  }

  blockByHeight(height: number): LegacyBlock | undefined {
    const id = this.blockIdAtHeight(height);
    return id === undefined ? undefined : this.blockById(id);
  }

  /** The height in the stored header of this block, if the block is stored. */
  heightOf(id: Uint8Array): number | undefined {
    const header = this.headerById(id);
    return header === undefined ? undefined : decodeLegacyHeader(header).height;
  }

  /**
   * The stored blocks with heights in [from, to], highest first, each encoded as `{header,
   * payload}` (a getLegacyBlocksFromId answer); heights without a block are skipped.
   */
  encodedBlocksBetween(from: number, to: number): Buffer[] {
    const low = Math.max(from, 0);
    const high = Math.min(to, 0xffff_ffff);
    if (high < low) return [];
    const blocks: Buffer[] = [];
    // Reverse ranges run from `start` (included) down to `end` (excluded).
    const end = low === 0 ? Buffer.from([ID_BY_HEIGHT]) : heightKey(low - 1);
    const range = this.db.getRange({ start: heightKey(high), end, reverse: true });
    for (const { key: heightEntry, value: id } of range) {
      if (heightEntry.length !== 5 || heightEntry[0] !== ID_BY_HEIGHT) continue;
      const block = this.blockById(id);
      if (block !== undefined) blocks.push(encodeLegacyBlock(block));
    }
    return blocks;
  }

  bracketInfo(snapshotBlockId: Uint8Array): LegacyBracketInfo | undefined {
    const stored = this.db.get(key(BRACKET, snapshotBlockId));
    return stored === undefined ? undefined : codec.decode<LegacyBracketInfo>(legacyBracketInfoSchema, stored);
  }

  setBracketInfo(snapshotBlockId: Uint8Array, info: LegacyBracketInfo): void {
    this.db.putSync(key(BRACKET, snapshotBlockId), codec.encode(legacyBracketInfoSchema, info));
  }

  importCursor(snapshotBlockId: Uint8Array): LegacyImportCursor | undefined {
    const stored = this.db.get(key(IMPORT_CURSOR, snapshotBlockId));
    if (stored === undefined || stored.length !== 4 + ID_LENGTH) return undefined;
    return { height: stored.readUInt32BE(0), id: Buffer.from(stored.subarray(4)) };
  }

  /**
   * Stores `blocks` (each with its transactions, by ID and by height) and, in the same LMDB
   * transaction, the import cursor and the bracket state given.
   */
  writeBlocks(
    blocks: readonly LegacyBlockToStore[],
    progress: { readonly snapshotBlockId: Uint8Array; readonly cursor?: LegacyImportCursor; readonly bracket?: LegacyBracketInfo },
  ): void {
    this.env.transactionSync(() => {
      for (const block of blocks) this.putBlock(block);
      if (progress.cursor) {
        const value = Buffer.alloc(4 + ID_LENGTH);
        value.writeUInt32BE(progress.cursor.height, 0);
        value.set(progress.cursor.id, 4);
        this.db.putSync(key(IMPORT_CURSOR, progress.snapshotBlockId), value);
      }
      if (progress.bracket) this.setBracketInfo(progress.snapshotBlockId, progress.bracket);
    });
  }

  /** Removes the import cursor of a bracket (its import is finished). */
  clearImportCursor(snapshotBlockId: Uint8Array): void {
    this.db.removeSync(key(IMPORT_CURSOR, snapshotBlockId));
  }

  private putBlock(block: LegacyBlockToStore): void {
    const transactionIds = block.payload.map((transaction) => legacyTransactionId(transaction));
    this.db.putSync(key(HEADER_BY_ID, block.id), block.header);
    const height = heightKey(block.height);
    this.db.putSync(height, block.id);
    block.payload.forEach((transaction, index) => {
      this.db.putSync(key(TRANSACTION_BY_ID, transactionIds[index] as Buffer), transaction);
    });
    this.db.putSync(key(TRANSACTION_IDS_BY_BLOCK, block.id), Buffer.concat(transactionIds));
  }
}
