/**
 * How long a node keeps the events of its blocks (`system.keepEventsForHeights`), after
 * lisk-sdk v6.1.0 `elements/lisk-chain/src/data_access/storage.ts` (`_cleanUntil`, run after each
 * stored block): with `keep` ≥ 0, the events of every height below
 * `min(finalizedHeight, max(0, tipHeight - keep))` are dropped; -1 keeps them all.
 *
 * The finalized height caps it so that a block that can still be reverted, and the blocks a
 * revert could bring back, never lose their events: the events of the heights kept are exactly
 * those a client reading `chain_getEvents` after a `chain_newBlock` may still ask for.
 */

/** `system.keepEventsForHeights` meaning "keep every event". */
export const KEEP_ALL_EVENTS = -1;

/**
 * The highest height whose events may be dropped once `tipHeight` is stored with
 * `finalizedHeight`, or -1 when none may (or `keep` is -1).
 */
export function eventsPrunableUpTo(keep: number, tipHeight: number, finalizedHeight: number): number {
  if (keep <= KEEP_ALL_EVENTS) return -1;
  const firstKept = Math.min(finalizedHeight, Math.max(0, tipHeight - keep));
  return firstKept > 0 ? firstKept - 1 : -1;
}
