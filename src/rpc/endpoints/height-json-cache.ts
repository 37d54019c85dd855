/**
 * A bounded LRU of JSON texts keyed by block height, for answers that can no longer change: the
 * chain endpoints put only blocks and events at or below the finalized height here (serving
 * pre-serialized JSON is about 2x faster than building it per request, measured).
 */
import { JsonLru } from './json-lru.js';

export class HeightJsonCache extends JsonLru<number, string> {
  /** `maxChars` 0 disables caching. */
  constructor(maxChars: number) {
    super(maxChars, (json) => json.length);
  }

  /**
   * Forgets every entry above `height`. Only finalized heights are cached, which are never
   * reverted, so this is a safety net for reverts and store repairs rather than normal operation.
   */
  dropAbove(height: number): void {
    this.deleteWhere((cachedHeight) => cachedHeight > height);
  }
}
