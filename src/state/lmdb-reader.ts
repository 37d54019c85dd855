import type { Database } from 'lmdb';
import type { IterateOptions, KeyValue, StateReader } from './state-view.js';

const ZERO = Buffer.from([0]);

/**
 * A StateReader over one LMDB database with binary keys and values. LMDB ranges are half-open,
 * so inclusive upper bounds are made with `lte ‖ 00` forwards and by stopping by hand backwards.
 */
export class LmdbReader implements StateReader {
  constructor(private readonly db: Database<Buffer, Buffer>) {}

  get(key: Buffer): Buffer | undefined {
    return this.db.getBinary(key) ?? undefined;
  }

  has(key: Buffer): boolean {
    return this.db.doesExist(key);
  }

  iterate(options: IterateOptions): KeyValue[] {
    const result: KeyValue[] = [];
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (limit <= 0) return result;
    if (options.reverse) {
      for (const { key, value } of this.db.getRange({ start: options.lte, reverse: true })) {
        if (key.compare(options.gte) < 0) break;
        result.push({ key, value });
        if (result.length >= limit) break;
      }
    } else {
      const end = Buffer.concat([options.lte, ZERO]);
      for (const { key, value } of this.db.getRange({ start: options.gte, end })) {
        result.push({ key, value });
        if (result.length >= limit) break;
      }
    }
    return result;
  }
}
