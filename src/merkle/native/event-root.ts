/**
 * Block eventRoot (LIP 0065; docs/protocol/state-and-events.md) with the native addon when it is
 * loaded, else with src/merkle/smt/event-root.ts.
 *
 * A full block emits hundreds of events, each one leaf per topic, and their tree is built from
 * nothing for every block, generated or received. The addon's `eventRoot` takes the encoded
 * events and their topics in a few flat arrays and does the rest in one call: the value and topic
 * hashes, the keys, their order, and the tree (native/src/fresh_smt.rs), hashing each node once
 * and storing none. The root is the same either way (test/unit/native/event-root.test.ts).
 */
import { nativeAddon } from '../../native/addon.js';
import { EMPTY_HASH } from '../hash.js';
import {
  assertEventKeys,
  computeEventRootOfEvents as computeEventRootOfEventsTs,
  EVENT_KEY_LENGTH,
  type EventLeafSource,
} from '../smt/event-root.js';
import type { SmtEntry } from '../smt/types.js';
import { freshSmtRoot } from './fresh-root.js';

/**
 * Events have at most 4 topics (lisk-chain `EVENT_MAX_TOPICS_PER_EVENT`, enforced by lisk-sdk's
 * framework/src/state_machine/event_queue.ts); with more, a key's index word could overflow.
 */
const MAX_TOPICS = 4;

/** Block eventRoot of prepared leaves (12-byte keys, else FormatError). */
export function computeEventRoot(leaves: readonly SmtEntry[]): Buffer {
  if (leaves.length === 0) return EMPTY_HASH;
  assertEventKeys(leaves);
  return freshSmtRoot(
    leaves.map((leaf) => leaf.key),
    leaves.map((leaf) => leaf.value),
    EVENT_KEY_LENGTH,
  );
}

/**
 * Block eventRoot of whole events: `encoded[i]` is the `/block/event` encoding of `events[i]`.
 * Throws as the leaf-by-leaf computation would (only an index beyond uint32 with more than four
 * topics could make it throw).
 */
export function computeEventRootOfEvents(events: readonly EventLeafSource[], encoded: readonly Uint8Array[]): Buffer {
  if (nativeAddon === undefined) return computeEventRootOfEventsTs(events, encoded);
  const count = events.length;
  const eventEnds = new Uint32Array(count);
  const eventTopicEnds = new Uint32Array(count);
  const indexWords = new Uint32Array(count);
  let encodedBytes = 0;
  let topicCount = 0;
  let topicBytes = 0;
  for (let i = 0; i < count; i += 1) {
    const { topics, index } = events[i] as EventLeafSource;
    if (topics.length > MAX_TOPICS) return computeEventRootOfEventsTs(events, encoded);
    encodedBytes += (encoded[i] as Uint8Array).length;
    eventEnds[i] = encodedBytes;
    for (const topic of topics) topicBytes += topic.length;
    topicCount += topics.length;
    eventTopicEnds[i] = topicCount;
    indexWords[i] = index << 2;
  }
  if (topicCount === 0) return EMPTY_HASH;
  const flatEncoded = Buffer.allocUnsafe(encodedBytes);
  const flatTopics = Buffer.allocUnsafe(topicBytes);
  const topicEnds = new Uint32Array(topicCount);
  let topic = 0;
  topicBytes = 0;
  for (let i = 0; i < count; i += 1) {
    flatEncoded.set(encoded[i] as Uint8Array, i === 0 ? 0 : eventEnds[i - 1]);
    for (const bytes of (events[i] as EventLeafSource).topics) {
      flatTopics.set(bytes, topicBytes);
      topicBytes += bytes.length;
      topicEnds[topic] = topicBytes;
      topic += 1;
    }
  }
  return nativeAddon.eventRoot(flatEncoded, eventEnds, flatTopics, topicEnds, eventTopicEnds, indexWords);
}
