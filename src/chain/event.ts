import { codec } from '../codec/index.js';
import { computeEventRootOfEvents } from '../merkle/native/index.js';
import { eventLeaves, type EventLeaf } from '../merkle/smt/index.js';
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
export function eventSmtLeaves(event: EventProps, encoded = encodeEvent(event)): EventLeaf[] {
  return eventLeaves(event, encoded);
}

/**
 * A block's eventRoot (LIP 0065): the root of the event tree of all `events`, whose encodings
 * are `encoded` when the caller already has them. The same root as computeEventRoot over
 * eventSmtLeaves of every event, in one native call when the addon is loaded.
 */
export function blockEventRoot(events: readonly EventProps[], encoded: readonly Uint8Array[] = events.map(encodeEvent)): Buffer {
  return computeEventRootOfEvents(events, encoded);
}
