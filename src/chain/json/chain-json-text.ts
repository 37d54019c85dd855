/**
 * The JSON texts of the `chain_*` answers (lisk-sdk 6.1 shapes and key order), built
 * from a chain store. Shared by the main-thread endpoints (src/rpc/endpoints/chain-json-reader.ts)
 * and the chain-read worker tasks, so a worker's answer is the main thread's, byte for byte. It
 * lives in the chain room, below both, so that neither imports the other for it.
 */
import type { Block } from '../block.js';
import { eventToJSON, type EventProps } from '../event.js';
import type { Transaction } from '../transaction.js';

export function blockJsonText(block: Block): string {
  return JSON.stringify(block.toJSON());
}

export function transactionJsonText(transaction: Transaction): string {
  return JSON.stringify(transaction.toJSON());
}

/** The events of one block as chain_getEvents answers them. */
export function eventsJsonText(events: readonly EventProps[]): string {
  return JSON.stringify(events.map(eventToJSON));
}

/** A JSON array of texts that are each one JSON value. */
export function jsonArrayText(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}

/**
 * chain_getBlocksByHeightBetween: blocks from `to` down to `from` (lisk-sdk's order), heights
 * outside `lowestStored..highestStored` skipped, `from > to` giving `[]`. `blockJson` reads one
 * stored height (from a cache on the main thread, from LMDB in a worker).
 */
export function blocksBetweenJsonText(
  from: number,
  to: number,
  lowestStored: number,
  highestStored: number,
  blockJson: (height: number) => string,
): string {
  const parts: string[] = [];
  const highest = Math.min(to, highestStored);
  for (let height = highest; height >= Math.max(from, lowestStored); height -= 1) parts.push(blockJson(height));
  return jsonArrayText(parts);
}

/**
 * chain_getBlocksByIDs / getTransactionsByIDs: the items of the leading known IDs, stopping
 * silently at the first unknown one, as lisk-sdk does (a client learns which are missing from the
 * answer's length). `itemJson` gives undefined for an unknown ID.
 */
export function leadingKnownJsonText(ids: readonly string[], itemJson: (idHex: string) => string | undefined): string {
  const parts: string[] = [];
  for (const idHex of ids) {
    const json = itemJson(idHex);
    if (json === undefined) break;
    parts.push(json);
  }
  return jsonArrayText(parts);
}
