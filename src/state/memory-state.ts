import type { IterateOptions, KeyValue, StateReader } from './state-view.js';

/** A sorted in-memory state reader: the empty base of a genesis dry run and of unit tests. */
export class MemoryState implements StateReader {
  private readonly map = new Map<string, KeyValue>();

  constructor(entries: Iterable<KeyValue> = []) {
    for (const entry of entries) this.put(entry.key, entry.value);
  }

  put(key: Buffer, value: Buffer | undefined): void {
    const id = key.toString('latin1');
    if (value === undefined) this.map.delete(id);
    else this.map.set(id, { key: Buffer.from(key), value: Buffer.from(value) });
  }

  get(key: Buffer): Buffer | undefined {
    return this.map.get(key.toString('latin1'))?.value;
  }

  has(key: Buffer): boolean {
    return this.map.has(key.toString('latin1'));
  }

  iterate(options: IterateOptions): KeyValue[] {
    const result = [...this.map.values()]
      .filter(({ key }) => key.compare(options.gte) >= 0 && key.compare(options.lte) <= 0)
      .sort((a, b) => a.key.compare(b.key));
    if (options.reverse) result.reverse();
    return options.limit !== undefined ? result.slice(0, options.limit) : result;
  }
}
