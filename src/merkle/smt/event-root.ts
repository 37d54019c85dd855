import { FormatError } from '../../errors.js';
import { EMPTY_HASH, sha256 } from '../hash.js';
import { freshSmtRoot } from './fresh-root.js';
import type { SmtEntry } from './types.js';

/** Key length of the event tree (LIP 0065): 8 bytes of H(topic) ‖ uint32 index. */
export const EVENT_KEY_LENGTH = 12;

/** Bytes of H(topic) at the start of an event key (LIP 0065). */
const TOPIC_HASH_BYTES = 8;

/** What the event tree needs of one event besides its `/block/event` encoding: topics and index. */
export interface EventLeafSource {
  readonly topics: readonly Uint8Array[];
  readonly index: number;
}

/** One leaf of the event tree. */
export interface EventLeaf {
  readonly key: Buffer;
  readonly value: Buffer;
}

/** Throws the tree's FormatError unless every leaf has a 12-byte key. */
export function assertEventKeys(leaves: readonly SmtEntry[]): void {
  for (const { key } of leaves) {
    if (key.length !== EVENT_KEY_LENGTH) throw new FormatError(`SMT key must be ${EVENT_KEY_LENGTH} bytes, got ${key.length}.`);
  }
}

/**
 * Block eventRoot (LIP 0065; docs/protocol/state-and-events.md): the root of a fresh SMT with
 * 12-byte keys holding the given event leaves. The caller builds the leaves (one per event and
 * topic); no leaves give EMPTY_HASH. Nothing is stored: only the root is needed here.
 */
export function computeEventRoot(leaves: readonly SmtEntry[]): Buffer {
  if (leaves.length === 0) return EMPTY_HASH;
  assertEventKeys(leaves);
  return freshSmtRoot(
    leaves.map((leaf) => leaf.key),
    leaves.map((leaf) => leaf.value),
  );
}

/**
 * The event tree leaves of one event (LIP 0065): for topic t, key = H(topic)[0..8) ‖
 * uint32be((index << 2) + t) and value = H(encoded). The keys share one allocation.
 */
export function eventLeaves(event: EventLeafSource, encoded: Uint8Array): EventLeaf[] {
  const value = sha256(encoded);
  const { topics } = event;
  const keys = Buffer.allocUnsafe(topics.length * EVENT_KEY_LENGTH);
  // As lisk-chain: the index is shifted within 32 bits (an index above 2^30 - 1 is invalid anyway,
  // but must not make this throw).
  const indexWord = (event.index << 2) >>> 0;
  const leaves = new Array<EventLeaf>(topics.length);
  for (let t = 0; t < topics.length; t += 1) {
    const start = t * EVENT_KEY_LENGTH;
    sha256(topics[t] as Uint8Array).copy(keys, start, 0, TOPIC_HASH_BYTES);
    keys.writeUInt32BE(indexWord + t, start + TOPIC_HASH_BYTES);
    leaves[t] = { key: keys.subarray(start, start + EVENT_KEY_LENGTH), value };
  }
  return leaves;
}

/** Block eventRoot of whole events (`encoded[i]` is event i's encoding), in TypeScript. */
export function computeEventRootOfEvents(events: readonly EventLeafSource[], encoded: readonly Uint8Array[]): Buffer {
  return computeEventRoot(events.flatMap((event, i) => eventLeaves(event, encoded[i] as Uint8Array)));
}
