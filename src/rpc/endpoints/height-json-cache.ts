/**
 * A bounded LRU of JSON texts keyed by block height, for answers that can no longer change: the
 * chain endpoints put only blocks at or below the finalized height here (issue 6 "Endpoints";
 * DESIGN.md: serving pre-serialized JSON is about 2x faster than building it per request).
 *
 * The bound is on the summed text length, not on the entry count, because one block's JSON ranges
 * from under 2 KB (an empty block) to about 40 KB (a full one).
 */
export class HeightJsonCache {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used
  // entry first, which is the one evicted.
  private readonly entries = new Map<number, string>();
  private usedChars = 0;

  /** `maxChars` 0 disables caching. */
  constructor(private readonly maxChars: number) {}

  /** The cached text for `height`, refreshed as most recently used. */
  get(height: number): string | undefined {
    const json = this.entries.get(height);
    if (json !== undefined) {
      this.entries.delete(height);
      this.entries.set(height, json);
    }
    return json;
  }

  /** Caches `json` for `height`, evicting the least recently used entries beyond the bound. */
  set(height: number, json: string): void {
    if (json.length > this.maxChars) return;
    const previous = this.entries.get(height);
    if (previous !== undefined) {
      this.entries.delete(height);
      this.usedChars -= previous.length;
    }
    this.entries.set(height, json);
    this.usedChars += json.length;
    for (const [oldest, text] of this.entries) {
      if (this.usedChars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.usedChars -= text.length;
    }
  }

  /**
   * Forgets every entry above `height`. Only finalized blocks are cached, which are never reverted,
   * so this is a safety net for reverts and store repairs rather than part of normal operation.
   */
  dropAbove(height: number): void {
    for (const [cachedHeight, text] of this.entries) {
      if (cachedHeight > height) {
        this.entries.delete(cachedHeight);
        this.usedChars -= text.length;
      }
    }
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
