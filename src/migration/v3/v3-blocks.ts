/**
 * The Lisk Core 3 block history in height order, as stored, for importing it as Basalt's legacy
 * chain. lisk-chain 3.x `data_access/storage.ts` saves a block as `blocks:height:<height>` → id,
 * `blocks:id:<id>` → the encoded header, and, when the block has transactions,
 * `transactions:blockID:<id>` → the concatenated 32-byte ids of its transactions in block order,
 * each stored under `transactions:id:<txid>`.
 */
import { MigrationError } from '../migration-error.js';
import { readBlockHeaderAtHeight, readFirstHeight } from './v3-chain.js';
import { V3Database } from './v3-database.js';
import { heightBytes, logicalV3Key, V3_PREFIX, v3Key } from './v3-keys.js';

export interface V3StoredBlock {
  readonly id: Buffer;
  readonly height: number;
  /** The v3 encoded header, exactly as stored. */
  readonly header: Buffer;
  /** The v3 encoded transactions, in block order. */
  readonly transactions: readonly Buffer[];
}

const ID_LENGTH = 32;
/** Heights read per range scan of `blocks:height:`. */
const HEIGHTS_PER_PAGE = 10_000;

/**
 * The blocks from `fromHeight` to `toHeight` (inclusive) of the database at `dbPath`, opened
 * read-only and closed when the iteration ends or is abandoned. A height without a block, a
 * missing header or transaction, or a transaction list that is not a multiple of 32 bytes is
 * MIGRATION_DB_CORRUPT: the history must be complete to be imported.
 */
export async function* readV3Blocks(dbPath: string, fromHeight: number, toHeight: number): AsyncGenerator<V3StoredBlock> {
  if (!Number.isInteger(fromHeight) || !Number.isInteger(toHeight) || fromHeight < 0 || toHeight > 0xffff_ffff) {
    throw new MigrationError('MIGRATION_INVALID_OPTIONS', `Invalid height range ${fromHeight}..${toHeight}.`);
  }
  if (fromHeight > toHeight) return;
  const db = await V3Database.open(dbPath);
  try {
    let expected = fromHeight;
    const lte = v3Key(V3_PREFIX.blocksHeight, heightBytes(toHeight));
    for await (const page of db.scanPages({ gte: v3Key(V3_PREFIX.blocksHeight, heightBytes(fromHeight)), lte }, HEIGHTS_PER_PAGE)) {
      for (const { key, value: id } of page) {
        const height = logicalV3Key(key).readUInt32BE(V3_PREFIX.blocksHeight.length);
        if (height !== expected) throw corrupt(db, `has no block at height ${expected}`);
        expected += 1;
        yield await readStoredBlock(db, id, height);
      }
    }
    if (expected !== toHeight + 1) throw corrupt(db, `has no block at height ${expected}`);
  } finally {
    await db.close();
  }
}

/**
 * What names the v3 history of a migration: the ID of the snapshot block (the block at
 * `snapshotHeight`, which must exist: MIGRATION_KEY_MISSING otherwise) and the lowest height the
 * database holds, where the history starts.
 */
export async function readV3History(
  dbPath: string,
  snapshotHeight: number,
): Promise<{ readonly snapshotBlock: { readonly id: Buffer; readonly height: number }; readonly firstHeight: number }> {
  const db = await V3Database.open(dbPath);
  try {
    const firstHeight = await readFirstHeight(db);
    const { id } = await readBlockHeaderAtHeight(db, snapshotHeight);
    return { snapshotBlock: { id, height: snapshotHeight }, firstHeight };
  } finally {
    await db.close();
  }
}

async function readStoredBlock(db: V3Database, id: Buffer, height: number): Promise<V3StoredBlock> {
  const header = await db.get(v3Key(V3_PREFIX.blocksID, id));
  if (header === undefined) throw corrupt(db, `has no header for block ${id.toString('hex')} at height ${height}`);
  const ids = await db.get(v3Key(V3_PREFIX.transactionsBlockID, id));
  if (ids === undefined) return { id, height, header, transactions: [] };
  if (ids.length % ID_LENGTH !== 0) throw corrupt(db, `has a malformed transaction list for block ${id.toString('hex')}`);
  const transactions: Buffer[] = [];
  for (let offset = 0; offset < ids.length; offset += ID_LENGTH) {
    const transactionID = ids.subarray(offset, offset + ID_LENGTH);
    const transaction = await db.get(v3Key(V3_PREFIX.transactionsID, transactionID));
    if (transaction === undefined) {
      throw corrupt(db, `has no transaction ${transactionID.toString('hex')} of block ${id.toString('hex')}`);
    }
    transactions.push(transaction);
  }
  return { id, height, header, transactions };
}

function corrupt(db: V3Database, what: string): MigrationError {
  return new MigrationError('MIGRATION_DB_CORRUPT', `The Lisk Core v3 database ${db.path} ${what}.`);
}
