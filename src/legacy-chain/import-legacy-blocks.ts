/**
 * Imports a bracket of the v3 chain from a v3 database read in height order (the migration's
 * `readV3Blocks`), checking every block as lisk-sdk v6.1.0 checks legacy blocks received from
 * peers (`framework/src/engine/legacy/validate.ts`) and more: the v3 rules of lisk-sdk v5
 * (`elements/lisk-chain`) for the block ID, contiguous heights and links, and the transaction
 * root over the transactions' IDs (LIP 0032), and that the chain ends at the bracket's snapshot
 * block.
 *
 * Crash safety: blocks are written in batches, each in one LMDB transaction together with the
 * import's progress (the last block written). A killed import leaves whole batches; run again
 * with the same bracket, it skips the blocks it already holds (checking that the source still
 * has the same block where it stopped) and goes on. The bracket is marked complete in the
 * transaction that writes the snapshot block.
 */
import { decodeLegacyHeader, legacyBlockId, legacyTransactionId, legacyTransactionRoot } from './legacy-block.js';
import type { LegacyBracket } from './legacy-brackets.js';
import type { LegacyBlockToStore, LegacyChainStore } from './legacy-chain-store.js';
import { LegacyImportError } from './legacy-import-error.js';

/** One v3 block as read from a v3 database (the shape of the migration's `V3StoredBlock`). */
export interface V3BlockSource {
  readonly id: Buffer;
  readonly height: number;
  /** The header bytes as v3 stored them. */
  readonly header: Buffer;
  /** The transactions' bytes, in block order. */
  readonly transactions: readonly Buffer[];
}

export interface LegacyImportOptions {
  /** Blocks per LMDB transaction (1,000 by default). */
  readonly batchSize?: number;
  /** Called after each committed batch with the height of its last block. */
  readonly onProgress?: (progress: { readonly height: number; readonly imported: number }) => void;
}

export interface LegacyImportResult {
  /** Blocks written by this run (blocks an earlier, interrupted run wrote are not counted). */
  readonly imported: number;
  /** Blocks the source gave that an earlier run had already written. */
  readonly skipped: number;
  readonly transactions: number;
  /** True when the bracket was complete before this run: nothing was read. */
  readonly alreadyComplete: boolean;
}

const DEFAULT_BATCH_SIZE = 1000;

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/**
 * Stores the blocks of `bracket` from `blocks` (ascending heights, from the bracket's start
 * height up to its snapshot block) and marks the bracket complete. Throws LegacyImportError at
 * the first block that breaks a rule; what was committed before stays, and a later run resumes.
 */
export async function importLegacyBlocks(
  store: LegacyChainStore,
  blocks: AsyncIterable<V3BlockSource> | Iterable<V3BlockSource>,
  bracket: LegacyBracket,
  options: LegacyImportOptions = {},
): Promise<LegacyImportResult> {
  const snapshotBlockId = Buffer.from(bracket.snapshotBlockID, 'hex');
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const pending = { startHeight: bracket.startHeight, snapshotBlockHeight: bracket.snapshotHeight };
  const complete = { ...pending, lastBlockHeight: bracket.startHeight };
  const info = store.bracketInfo(snapshotBlockId);
  const cursor = store.importCursor(snapshotBlockId);
  if (cursor === undefined && info?.lastBlockHeight === bracket.startHeight && store.headerById(snapshotBlockId) !== undefined) {
    return { imported: 0, skipped: 0, transactions: 0, alreadyComplete: true };
  }

  let previous: { height: number; id: Buffer } | undefined;
  let skipped = 0;
  let imported = 0;
  let transactions = 0;
  let batch: LegacyBlockToStore[] = [];

  const commit = (last: { height: number; id: Buffer }, done: boolean): void => {
    store.writeBlocks(batch, {
      snapshotBlockId,
      cursor: last,
      // Until the snapshot block is in, this import adds nothing to the unbroken run down from it:
      // the recorded lowest height (a legacy sync's progress, or none) stays.
      bracket: done ? complete : { ...pending, lastBlockHeight: info?.lastBlockHeight ?? bracket.snapshotHeight },
    });
    imported += batch.length;
    batch = [];
    options.onProgress?.({ height: last.height, imported });
  };

  for await (const block of blocks) {
    const { height } = block;
    if (previous === undefined) {
      if (cursor === undefined) {
        if (height !== bracket.startHeight) {
          throw new LegacyImportError(
            'start-height',
            `The first block is at height ${height}; the bracket starts at ${bracket.startHeight}.`,
            height,
          );
        }
      } else if (height === cursor.height + 1) {
        // The source starts right after what an earlier run stored: link to that block.
        previous = cursor;
      } else if (height > cursor.height + 1 || height < bracket.startHeight) {
        throw new LegacyImportError(
          'resume',
          `An earlier import stopped at height ${cursor.height}; the source starts at ${height}.`,
          height,
        );
      }
    }
    if (cursor !== undefined && height <= cursor.height) {
      checkBlock(block, previous);
      if (height === cursor.height && !block.id.equals(cursor.id)) {
        throw new LegacyImportError(
          'resume',
          `Block ${hex(block.id)} at height ${height} is not the block ${hex(cursor.id)} an earlier import stored there.`,
          height,
        );
      }
      skipped += 1;
      previous = { height, id: block.id };
      continue;
    }
    const transactionCount = checkBlock(block, previous);
    if (height > bracket.snapshotHeight) {
      throw new LegacyImportError(
        'above-snapshot',
        `Block at height ${height} is above the snapshot height ${bracket.snapshotHeight}.`,
        height,
      );
    }
    if (height === bracket.snapshotHeight && !block.id.equals(snapshotBlockId)) {
      throw new LegacyImportError(
        'snapshot-block',
        `The block at the snapshot height ${height} is ${hex(block.id)}, not the snapshot block ${bracket.snapshotBlockID}.`,
        height,
      );
    }
    batch.push({ id: block.id, height, header: block.header, payload: block.transactions });
    transactions += transactionCount;
    previous = { height, id: block.id };
    if (height === bracket.snapshotHeight) {
      commit(previous, true);
      store.clearImportCursor(snapshotBlockId);
      return { imported, skipped, transactions, alreadyComplete: false };
    }
    if (batch.length >= batchSize) commit(previous, false);
  }
  if (batch.length > 0 && previous !== undefined) commit(previous, false);
  const reached = previous?.height ?? cursor?.height;
  throw new LegacyImportError(
    'incomplete',
    `The source ended at height ${reached ?? 'none'}, below the snapshot height ${bracket.snapshotHeight}.`,
    reached,
  );
}

/**
 * Checks one block on its own and against the block before it; returns its transaction count.
 */
function checkBlock(block: V3BlockSource, previous: { height: number; id: Buffer } | undefined): number {
  const { height } = block;
  const id = legacyBlockId(block.header);
  if (!id.equals(block.id)) {
    throw new LegacyImportError('block-id', `Block at height ${height}: its header hashes to ${hex(id)}, not ${hex(block.id)}.`, height);
  }
  let header: ReturnType<typeof decodeLegacyHeader>;
  try {
    header = decodeLegacyHeader(block.header);
  } catch (error) {
    throw new LegacyImportError('header', `Block ${hex(id)}: the header does not decode (${(error as Error).message}).`, height);
  }
  if (header.height !== height) {
    throw new LegacyImportError('height', `Block ${hex(id)} was read at height ${height} but its header says ${header.height}.`, height);
  }
  if (previous !== undefined) {
    if (height !== previous.height + 1) {
      throw new LegacyImportError(
        'height',
        `Block at height ${height} follows height ${previous.height}: heights must be contiguous.`,
        height,
      );
    }
    if (!header.previousBlockID.equals(previous.id)) {
      throw new LegacyImportError(
        'previous-block-id',
        `Block ${hex(id)} at height ${height} links to ${hex(header.previousBlockID)}, not to block ${hex(previous.id)}.`,
        height,
      );
    }
  }
  const root = legacyTransactionRoot(block.transactions.map((transaction) => legacyTransactionId(transaction)));
  if (!root.equals(header.transactionRoot)) {
    throw new LegacyImportError(
      'transaction-root',
      `Block ${hex(id)} at height ${height}: its transactions give the root ${hex(root)}, the header says ${hex(header.transactionRoot)}.`,
      height,
    );
  }
  return block.transactions.length;
}
