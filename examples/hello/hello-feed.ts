/**
 * The helloFeed plugin's memory: the latest hellos seen on the chain, newest first, read from
 * the `newHello` events of each new block. Plugin state is not chain state: it lives in the
 * process, is rebuilt from recent blocks at start, and may differ between nodes.
 */
import { codec, encodeLisk32Address, type EventProps } from '../../src/plugins/index.js';
import { HELLO_MODULE_NAME, newHelloEventSchema, type NewHelloData } from './hello-module/schemas.js';

/** One hello as the feed serves it (JSON-ready). */
export interface FeedEntry {
  readonly height: number;
  readonly transactionID: string;
  readonly senderAddress: string;
  readonly message: string;
}

// Events of a transaction carry 04 ‖ transaction ID as their first topic (LIP 0065).
const TRANSACTION_TOPIC_PREFIX = 0x04;

export class HelloFeed {
  private entries: FeedEntry[] = [];

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.length;
  }

  /** The hellos among a block's events, in event order. */
  static hellosIn(events: readonly EventProps[]): FeedEntry[] {
    const found: FeedEntry[] = [];
    for (const event of events) {
      if (event.module !== HELLO_MODULE_NAME || event.name !== 'newHello') continue;
      const data = codec.decode<NewHelloData>(newHelloEventSchema, event.data);
      const topic = event.topics[0];
      found.push({
        height: event.height,
        transactionID: topic !== undefined && topic[0] === TRANSACTION_TOPIC_PREFIX ? topic.subarray(1).toString('hex') : '',
        senderAddress: encodeLisk32Address(data.senderAddress),
        message: data.message,
      });
    }
    return found;
  }

  /** Adds a block's hellos (oldest first) in front, keeping at most `capacity`. */
  add(hellos: readonly FeedEntry[]): void {
    if (hellos.length === 0) return;
    this.entries = [...[...hellos].reverse(), ...this.entries].slice(0, this.capacity);
  }

  /** Forgets hellos of blocks at `height` and above (a block was deleted from the tip). */
  dropFrom(height: number): void {
    this.entries = this.entries.filter((entry) => entry.height < height);
  }

  latest(limit: number): FeedEntry[] {
    return this.entries.slice(0, limit);
  }

  clear(): number {
    const count = this.entries.length;
    this.entries = [];
    return count;
  }
}
