import { codec } from '../codec/index.js';
import { sha256 } from '../crypto/index.js';
import { eventSchema } from './schemas.js';

export interface EventProps {
  readonly module: string;
  readonly name: string;
  readonly data: Buffer;
  readonly topics: readonly Buffer[];
  readonly height: number;
  readonly index: number;
}

/** The JSON form of an event (`chain_getEvents`), keys in lisk-sdk's order (lisk-chain Event.toJSON). */
export interface EventJSON {
  data: string;
  index: number;
  module: string;
  name: string;
  topics: string[];
  height: number;
}

/** Bytes of H(topic) used in an event SMT key (LIP 0065). */
const TOPIC_HASH_BYTES = 8;

/** The `/block/event` encoding (LIP 0065); its hash is the event's SMT value. */
export function encodeEvent(event: EventProps): Buffer {
  return codec.encode(eventSchema, event);
}

/** Decodes a `/block/event` encoding; throws DecodeError. */
export function decodeEvent(bytes: Uint8Array): EventProps {
  return codec.decode<EventProps>(eventSchema, bytes);
}

/** The JSON form: data and topics as hex, in lisk-sdk's key order. */
export function eventToJSON(event: EventProps): EventJSON {
  return {
    data: event.data.toString('hex'),
    index: event.index,
    module: event.module,
    name: event.name,
    topics: event.topics.map((topic) => topic.toString('hex')),
    height: event.height,
  };
}

/**
 * The event SMT leaves of one event (LIP 0065; docs/protocol/state-and-events.md): for each topic
 * t, key = H(topic)[0..8) ‖ uint32be((index << 2) + t), value = H(encoded event).
 */
export function eventSmtLeaves(event: EventProps, encoded = encodeEvent(event)): { key: Buffer; value: Buffer }[] {
  const value = sha256(encoded);
  return event.topics.map((topic, topicIndex) => {
    const key = Buffer.alloc(TOPIC_HASH_BYTES + 4);
    sha256(topic).copy(key, 0, 0, TOPIC_HASH_BYTES);
    // As lisk-chain: the index is shifted within 32 bits (an index above 2^30 - 1 is invalid
    // anyway, but must not make this throw).
    key.writeUInt32BE(((event.index << 2) >>> 0) + topicIndex, TOPIC_HASH_BYTES);
    return { key, value };
  });
}
