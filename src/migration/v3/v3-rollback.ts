/**
 * A Lisk Core 3 database seen as it was at an earlier height, without writing to it. Lisk Core 3
 * (lisk-chain 3.x `data_access/storage.ts` deleteBlock) removes its last block by deleting the
 * block's header, height, transactions and transaction list, then undoing the block's state
 * changes from `diff:<height>`: keys the block created are deleted, keys it updated or deleted
 * get their previous values back. Doing that for every block from the tip down to
 * `height + 1`, into an in-memory overlay instead of a write batch, gives the database a node
 * would have after deleting those blocks. Diffs below the finalized height are pruned by Lisk
 * Core 3, so the rollback reaches only that far.
 */
import { MigrationError } from '../migration-error.js';
import type { V3Database, V3Overlay } from './v3-database.js';
import { heightBytes, V3_PREFIX, v3Key } from './v3-keys.js';
import { type V3StateDiff, v3StateDiffSchema } from './v3-schemas.js';

const ID_LENGTH = 32;

/** The overlay that takes the database from `tipHeight` back to `height`. */
export async function rollbackOverlay(db: V3Database, tipHeight: number, height: number): Promise<V3Overlay> {
  const overlay: V3Overlay = new Map();
  const remove = (key: Buffer): void => {
    overlay.set(key.toString('hex'), null);
  };
  for (let current = tipHeight; current > height; current -= 1) {
    const heightKey = v3Key(V3_PREFIX.blocksHeight, heightBytes(current));
    const id = await db.get(heightKey);
    if (id === undefined) throw unavailable(db, `it has no block at height ${current}`);
    remove(heightKey);
    remove(v3Key(V3_PREFIX.blocksID, id));
    const transactionList = v3Key(V3_PREFIX.transactionsBlockID, id);
    const transactionIDs = await db.get(transactionList);
    if (transactionIDs !== undefined) {
      for (let offset = 0; offset < transactionIDs.length; offset += ID_LENGTH) {
        remove(v3Key(V3_PREFIX.transactionsID, transactionIDs.subarray(offset, offset + ID_LENGTH)));
      }
      remove(transactionList);
    }
    const diffKey = v3Key(V3_PREFIX.stateDiff, heightBytes(current));
    const diff = await db.getDecoded<V3StateDiff>(diffKey, v3StateDiffSchema);
    if (diff === undefined) {
      throw unavailable(db, `it has no state diff for height ${current} (Lisk Core 3 keeps them only above the finalized height)`);
    }
    remove(diffKey);
    // Lower heights come later and overwrite: the value before the lowest block is the one kept.
    for (const key of diff.created) remove(Buffer.from(key, 'utf8'));
    for (const { key, value } of diff.deleted) overlay.set(Buffer.from(key, 'utf8').toString('hex'), value);
    for (const { key, value } of diff.updated) overlay.set(Buffer.from(key, 'utf8').toString('hex'), value);
  }
  return overlay;
}

function unavailable(db: V3Database, why: string): MigrationError {
  return new MigrationError('MIGRATION_ROLLBACK_UNAVAILABLE', `Cannot roll the Lisk Core v3 database ${db.path} back: ${why}.`);
}
