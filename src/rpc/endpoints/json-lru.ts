/**
 * A least-recently-used map bounded by the summed length of its JSON texts, not by its entry
 * count: one block's JSON ranges from under 2 KB (an empty block) to about 40 KB (a full one), a
 * transaction's from 300 bytes to the 15 KB of a large params blob.
 */
export class JsonLru<K, V> {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used
  // entry first, which is the one evicted.
  private readonly entries = new Map<K, V>();
  private usedChars = 0;

  /** `maxChars` 0 disables caching; `charsOf` tells how much of the bound a value takes. */
  constructor(
    private readonly maxChars: number,
    private readonly charsOf: (value: V) => number,
  ) {}

  /** The cached value for `key`, refreshed as most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Caches `value` under `key`, evicting the least recently used entries beyond the bound. */
  set(key: K, value: V): void {
    const chars = this.charsOf(value);
    if (chars > this.maxChars) return;
    this.delete(key);
    this.entries.set(key, value);
    this.usedChars += chars;
    for (const [oldest, old] of this.entries) {
      if (this.usedChars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.usedChars -= this.charsOf(old);
    }
  }

  delete(key: K): void {
    const previous = this.entries.get(key);
    if (previous === undefined) return;
    this.entries.delete(key);
    this.usedChars -= this.charsOf(previous);
  }

  /** Forgets every entry `doomed` selects. */
  deleteWhere(doomed: (key: K, value: V) => boolean): void {
    for (const [key, value] of this.entries) if (doomed(key, value)) this.delete(key);
  }

  /** Number of cached entries. */
  get size(): number {
    return this.entries.size;
  }

  /** Summed length of the cached texts, in UTF-16 code units. */
  get chars(): number {
    return this.usedChars;
  }
}
