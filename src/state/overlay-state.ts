import type { IterateOptions, KeyValue, StateReader, StateWriter } from './state-view.js';

/** A change of one key relative to the underlying reader; `value` undefined = deleted. */
export interface StateChange {
  readonly key: Buffer;
  readonly value: Buffer | undefined;
  readonly previous: Buffer | undefined;
}

interface Entry {
  readonly key: Buffer;
  value: Buffer | undefined;
}

interface JournalRecord {
  readonly id: string;
  /** The entry the write changed; undefined when the write created it. */
  readonly entry: Entry | undefined;
  /** `entry.value` before the write. */
  readonly previous: Buffer | undefined;
}

type Latin1Slice = (this: Buffer, start: number, end: number) => string;

/**
 * Node's Buffer#latin1Slice, which `toString('latin1')` ends in after checking its arguments and
 * looking up the encoding; keys are read twice per state access, so the direct call pays off.
 * Not part of Node's documented API, hence the fallback.
 */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: Latin1Slice }).latin1Slice;

/** The map key of a state key: one character per byte. */
const idOf: (key: Buffer) => string =
  typeof latin1Slice === 'function' ? (key) => latin1Slice.call(key, 0, key.length) : (key) => key.toString('latin1');

/**
 * Write overlay over a persistent reader: every write of one block (or one dry run) lands here,
 * and nothing reaches the database until the engine commits the block's net changes atomically.
 *
 * Snapshots are a journal of overwritten entries, so taking one is O(1) and restoring costs only
 * the writes made since (lisk-sdk copies its whole cache per snapshot; a block takes two
 * snapshots per transaction, so that difference matters at 10k tx/s).
 *
 * Values handed out are the stored buffers themselves: callers decode them and must never mutate
 * them in place. Stored values are copies of what callers set, so a caller may reuse its buffer.
 */
export class OverlayState implements StateWriter {
  private readonly entries = new Map<string, Entry>();
  private readonly journal: JournalRecord[] = [];

  constructor(private readonly base: StateReader) {}

  get(key: Buffer): Buffer | undefined {
    const entry = this.entries.get(idOf(key));
    return entry ? entry.value : this.base.get(key);
  }

  has(key: Buffer): boolean {
    return this.get(key) !== undefined;
  }

  set(key: Buffer, value: Buffer): void {
    this.write(key, Buffer.from(value), false);
  }

  /**
   * `set` for buffers the caller made for this call and never touches again (a module store's
   * freshly built key and encoded value): they are kept as they are, without `set`'s copies.
   */
  setOwned(key: Buffer, value: Buffer): void {
    this.write(key, value, true);
  }

  del(key: Buffer): void {
    this.write(key, undefined, false);
  }

  snapshot(): number {
    return this.journal.length;
  }

  restore(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id > this.journal.length) {
      throw new RangeError(`Unknown state snapshot ${id}`);
    }
    // Undone newest first, so an entry a write created is only deleted once every later write
    // to it is undone, and an entry a write changed is still the one in the map.
    while (this.journal.length > id) {
      const record = this.journal.pop() as JournalRecord;
      if (record.entry === undefined) this.entries.delete(record.id);
      else record.entry.value = record.previous;
    }
  }

  iterate(options: IterateOptions): KeyValue[] {
    const { gte, lte } = options;
    const merged = new Map<string, KeyValue>();
    for (const item of this.base.iterate({ gte, lte, reverse: options.reverse })) {
      merged.set(item.key.toString('latin1'), item);
    }
    for (const [id, entry] of this.entries) {
      if (entry.key.compare(gte) < 0 || entry.key.compare(lte) > 0) continue;
      if (entry.value === undefined) merged.delete(id);
      else merged.set(id, { key: entry.key, value: entry.value });
    }
    const result = [...merged.values()].sort((a, b) => a.key.compare(b.key));
    if (options.reverse) result.reverse();
    return options.limit !== undefined ? result.slice(0, options.limit) : result;
  }

  /**
   * The net changes against the base reader, sorted by key: keys written back to their original
   * value (or created and deleted again) are left out, as they change neither state nor root.
   */
  changes(): StateChange[] {
    const result: StateChange[] = [];
    for (const entry of this.entries.values()) {
      const previous = this.base.get(entry.key);
      const same = entry.value === undefined ? previous === undefined : previous?.equals(entry.value);
      if (!same) result.push({ key: entry.key, value: entry.value, previous });
    }
    return result.sort((a, b) => a.key.compare(b.key));
  }

  private write(key: Buffer, value: Buffer | undefined, ownedKey: boolean): void {
    const id = idOf(key);
    const entry = this.entries.get(id);
    if (entry !== undefined) {
      this.journal.push({ id, entry, previous: entry.value });
      entry.value = value;
    } else {
      this.journal.push({ id, entry: undefined, previous: undefined });
      this.entries.set(id, { key: ownedKey ? key : Buffer.from(key), value });
    }
  }
}
