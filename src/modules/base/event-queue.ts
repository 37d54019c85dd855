/**
 * The block's single ordered list of events (LIP 0065; docs/protocol/state-and-events.md), shared
 * by every stage of block execution. Stage- and transaction-scoped views prepend their default
 * topic (`02` before transactions, `04 ‖ txID` inside a transaction, ...) to each event they add.
 */
export interface QueuedEvent {
  readonly module: string;
  readonly name: string;
  readonly data: Buffer;
  readonly topics: readonly Buffer[];
  readonly height: number;
  /** Position in the block's event list; reassigned when events are reverted. */
  index: number;
}

interface QueueEntry {
  event: QueuedEvent;
  /** Events flagged non-revertible survive a failed command (lisk-sdk `noRevert`). */
  readonly noRevert: boolean;
}

/** lisk-sdk EVENT_MAX_EVENT_SIZE_BYTES: a limit on `data`, not on the serialized event. */
export const MAX_EVENT_DATA_BYTES = 10 * 1024;
export const MAX_TOPICS_PER_EVENT = 4;
export const MAX_EVENTS_PER_BLOCK = 2 ** 30;

export class EventQueue {
  private constructor(
    readonly height: number,
    private readonly entries: QueueEntry[],
    private readonly defaultTopics: readonly Buffer[],
  ) {}

  static forBlock(height: number): EventQueue {
    return new EventQueue(height, [], []);
  }

  /** A view on the same list that prepends `topic` to every event it adds. */
  withDefaultTopic(topic: Buffer): EventQueue {
    return new EventQueue(this.height, this.entries, [topic]);
  }

  /** Adds an event, enforcing the data-size and topic-count limits (lisk-sdk `add`). */
  add(module: string, name: string, data: Buffer, topics: readonly Buffer[] = [], noRevert = false): void {
    if (data.length > MAX_EVENT_DATA_BYTES) {
      throw new RangeError(`Event data of ${data.length} bytes exceeds the limit of ${MAX_EVENT_DATA_BYTES}`);
    }
    if (this.defaultTopics.length + topics.length > MAX_TOPICS_PER_EVENT) {
      throw new RangeError(`An event has at most ${MAX_TOPICS_PER_EVENT} topics`);
    }
    this.addUnchecked(module, name, data, topics, noRevert);
  }

  /** Adds without limit checks: only for engine-made events (lisk-sdk `unsafeAdd`). */
  addUnchecked(module: string, name: string, data: Buffer, topics: readonly Buffer[] = [], noRevert = false): void {
    this.entries.push({
      event: {
        module,
        name,
        data,
        topics: [...this.defaultTopics, ...topics],
        height: this.height,
        index: this.entries.length,
      },
      noRevert,
    });
  }

  snapshot(): number {
    return this.entries.length;
  }

  /** Drops the events added since `snapshot`, keeping non-revertible ones re-indexed in order. */
  restore(snapshot: number): void {
    const dropped = this.entries.splice(snapshot);
    for (const entry of dropped) {
      if (!entry.noRevert) continue;
      this.entries.push({ event: { ...entry.event, index: this.entries.length }, noRevert: false });
    }
  }

  events(): QueuedEvent[] {
    return this.entries.map((entry) => entry.event);
  }
}
