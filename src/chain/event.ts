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

export interface EventJSON {
  module: string;
  name: string;
  data: string;
  topics: string[];
  height: number;
  index: number;
}

/** Bytes of H(topic) used in an event SMT key (protocol.md §4.3). */
const TOPIC_HASH_BYTES = 8;

export function encodeEvent(event: EventProps): Buffer {
  return codec.encode(eventSchema, event);
}

export function decodeEvent(bytes: Uint8Array): EventProps {
  return codec.decode<EventProps>(eventSchema, bytes);
}

export function eventToJSON(event: EventProps): EventJSON {
  return codec.toJSON<EventJSON>(eventSchema, event);
}

/**
 * The event SMT leaves of one event (protocol.md §4.3, LIP 0065): for each topic t, key =
 * H(topic)[0..8) ‖ uint32be((index << 2) + t), value = H(encoded event).
 */
export function eventSmtLeaves(event: EventProps, encoded = encodeEvent(event)): { key: Buffer; value: Buffer }[] {
  const value = sha256(encoded);
  return event.topics.map((topic, topicIndex) => {
    const key = Buffer.alloc(TOPIC_HASH_BYTES + 4);
    sha256(topic).copy(key, 0, 0, TOPIC_HASH_BYTES);
    key.writeUInt32BE(event.index * 4 + topicIndex, TOPIC_HASH_BYTES);
    return { key, value };
  });
}
