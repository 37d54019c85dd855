/**
 * Legacy brackets: a range of the v3 chain, named by its last block (the snapshot block the v4
 * genesis block follows), as lisk-sdk v6.1.0's `legacy.brackets` config describes it, and the
 * start-up step that records each configured bracket (`framework/src/engine/legacy/
 * legacy_chain_handler.ts`, `init`).
 */
import type { LegacyChainStore } from './legacy-chain-store.js';

/** One configured bracket (the shape of `legacy.brackets[]` in the node config). */
export interface LegacyBracket {
  readonly startHeight: number;
  readonly snapshotHeight: number;
  /** Hex of the snapshot block's ID. */
  readonly snapshotBlockID: string;
}

/**
 * The bracket of a migrated chain: from `startHeight` (the lowest v3 height kept, usually the v3
 * genesis block's) up to the snapshot block. This is the entry to add to `legacy.brackets`.
 */
export function legacyBracket(snapshotBlock: { readonly id: Uint8Array; readonly height: number }, startHeight: number): LegacyBracket {
  if (!Number.isInteger(startHeight) || startHeight < 0 || startHeight > snapshotBlock.height) {
    throw new RangeError(`A legacy bracket's start height must be between 0 and the snapshot height ${snapshotBlock.height}.`);
  }
  return { startHeight, snapshotHeight: snapshotBlock.height, snapshotBlockID: Buffer.from(snapshotBlock.id).toString('hex') };
}

/** Whether the bracket holds every block from its start height to its snapshot block. */
export function isBracketComplete(store: LegacyChainStore, bracket: LegacyBracket): boolean {
  const info = store.bracketInfo(Buffer.from(bracket.snapshotBlockID, 'hex'));
  return info !== undefined && info.lastBlockHeight === bracket.startHeight;
}

/**
 * Records the configured brackets as lisk-sdk does at start: a bracket seen for the first time
 * starts empty (its lowest held height is the snapshot height); a known one takes the configured
 * heights and counts as complete when its start block is stored, and is left as it was otherwise
 * (or while an import into it is unfinished).
 */
export function initLegacyBrackets(store: LegacyChainStore, brackets: readonly LegacyBracket[]): void {
  for (const bracket of brackets) {
    const snapshotBlockId = Buffer.from(bracket.snapshotBlockID, 'hex');
    const stored = store.bracketInfo(snapshotBlockId);
    if (stored === undefined) {
      store.setBracketInfo(snapshotBlockId, {
        startHeight: bracket.startHeight,
        snapshotBlockHeight: bracket.snapshotHeight,
        lastBlockHeight: bracket.snapshotHeight,
      });
      continue;
    }
    // An import from a v3 database writes upwards from the start block: while one is unfinished
    // the start block proves nothing about the blocks above it.
    if (store.blockIdAtHeight(bracket.startHeight) === undefined || store.importCursor(snapshotBlockId) !== undefined) continue;
    store.setBracketInfo(snapshotBlockId, {
      startHeight: bracket.startHeight,
      snapshotBlockHeight: bracket.snapshotHeight,
      lastBlockHeight: bracket.startHeight,
    });
  }
}
