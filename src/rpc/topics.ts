/**
 * Event topics of WebSocket subscriptions (lisk-sdk controller/ws/ws_server.ts). lisk-sdk delivers
 * an event to a socket when some subscribed topic `t` satisfies `event.includes(t)`, so `chain`
 * receives every `chain_*` event, `Block` receives chain_newBlock and chain_deleteBlock, and ``
 * receives everything. Basalt keeps that rule so that Lisk clients see the same events.
 */
import { InvalidParamsError } from '../errors.js';

/** Most topics one socket may hold, and the longest topic: subscriptions cost memory and time. */
export const MAX_TOPICS_PER_SOCKET = 256;
export const MAX_TOPIC_LENGTH = 256;

/** Whether an event called `eventName` goes to a socket subscribed to `topics`. */
export function topicsMatch(topics: ReadonlySet<string>, eventName: string): boolean {
  if (topics.has(eventName)) return true;
  for (const topic of topics) if (eventName.includes(topic)) return true;
  return false;
}

/**
 * The `params.topics` of a subscribe or unsubscribe request: a non-empty array of strings of at
 * most MAX_TOPIC_LENGTH characters, duplicates dropped. Throws InvalidParamsError (-32602).
 */
export function parseTopics(params: unknown): string[] {
  const topics = typeof params === 'object' && params !== null ? (params as { topics?: unknown }).topics : undefined;
  if (!Array.isArray(topics) || topics.length === 0) {
    throw new InvalidParamsError('params.topics: must be a non-empty array of event names or prefixes.');
  }
  if (topics.length > MAX_TOPICS_PER_SOCKET) {
    throw new InvalidParamsError(`params.topics: must not hold more than ${MAX_TOPICS_PER_SOCKET} topics.`);
  }
  const unique = new Set<string>();
  for (let i = 0; i < topics.length; i += 1) {
    const topic: unknown = topics[i];
    if (typeof topic !== 'string') throw new InvalidParamsError(`params.topics[${i}]: must be string.`);
    if (topic.length > MAX_TOPIC_LENGTH) {
      throw new InvalidParamsError(`params.topics[${i}]: must NOT have more than ${MAX_TOPIC_LENGTH} characters.`);
    }
    unique.add(topic);
  }
  return [...unique];
}
