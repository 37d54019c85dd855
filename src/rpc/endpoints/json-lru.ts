/**
 * A least-recently-used map bounded by the summed length of its JSON texts, not by its entry
 * count: one block's JSON ranges from under 2 KB (an empty block) to about 40 KB (a full one), a
 * transaction's from 300 bytes to the 15 KB of a large params blob.
 *
 * A hit must not touch the Map. Moving an entry to the end on every hit (delete, then set) makes
 * V8 replace the Map's hash table each time, and a replaced table keeps a forwarding pointer to
 * its successor: once the Map lives in the old generation, the whole chain of replaced tables is
 * reachable from it at every scavenge, so each hit's table was promoted to the old generation.
 * Under RPC load that was ~150 bytes of old-generation garbage per request (tens of MB per
 * minute), paid back in mark-compact pauses and longer scavenges: the latency tail of
 * chain_getBlockByHeight. So a hit only marks its entry as used, and eviction gives a used entry
 * a second chance (moved to the end, mark cleared) before dropping the first unused one: the
 * order is recency of insertion or of the last eviction pass, which approximates LRU closely
 * enough for a cache whose hot entries are hit thousands of times between evictions.
 */
interface Slot<V> {
  readonly value: V;
  readonly chars: number;
  /** Hit since it was stored or last given a second chance. */
  used: boolean;
}

export class JsonLru<K, V> {
  // A Map iterates in insertion order: the first entry is the eviction candidate.
  private readonly entries = new Map<K, Slot<V>>();
  private usedChars = 0;

  /** `maxChars` 0 disables caching; `charsOf` tells how much of the bound a value takes. */
  constructor(
    private readonly maxChars: number,
    private readonly charsOf: (value: V) => number,
  ) {}

  /** The cached value for `key`, marked as recently used. */
  get(key: K): V | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined) return undefined;
    slot.used = true;
    return slot.value;
  }

  /** Whether `key` is cached; unlike `get`, it does not count as a use. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Caches `value` under `key`, evicting the least recently used entries beyond the bound. */
  set(key: K, value: V): void {
    const chars = this.charsOf(value);
    if (chars > this.maxChars) return;
    this.delete(key);
    this.entries.set(key, { value, chars, used: false });
    this.usedChars += chars;
    while (this.usedChars > this.maxChars) {
      const oldest = this.entries.keys().next().value as K;
      const slot = this.entries.get(oldest) as Slot<V>;
      this.entries.delete(oldest);
      if (slot.used || oldest === key) {
        // Second chance: to the end, unmarked (the entry being stored always stays: it fits
        // alone). The loop ends: after one pass every other survivor is unmarked and goes in
        // order.
        slot.used = false;
        this.entries.set(oldest, slot);
      } else {
        this.usedChars -= slot.chars;
      }
    }
  }

  delete(key: K): void {
    const previous = this.entries.get(key);
    if (previous === undefined) return;
    this.entries.delete(key);
    this.usedChars -= previous.chars;
  }

  /** Forgets every entry `doomed` selects. */
  deleteWhere(doomed: (key: K, value: V) => boolean): void {
    for (const [key, slot] of this.entries) if (doomed(key, slot.value)) this.delete(key);
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
