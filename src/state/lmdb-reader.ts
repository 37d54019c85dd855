import type { Database } from 'lmdb';
import type { IterateOptions, KeyValue, StateReader } from './state-view.js';

const ZERO = Buffer.from([0]);

/**
 * LMDB's largest key (`mdb_env_get_maxkeysize` of a default build). No longer key can be stored,
 * and lmdb-js throws a RangeError instead of answering for keys past its key buffer, so a lookup
 * of such a key (an endpoint's unbounded hex param, say) is answered "absent" here, as a store
 * without a key limit (lisk-sdk's) would answer it.
 */
export const LMDB_MAX_KEY_BYTES = 1978;

/**
 * A StateReader over one LMDB database with binary keys and values. LMDB ranges are half-open,
 * so inclusive upper bounds are made with `lte ‖ 00` forwards and by stopping by hand backwards.
 */
export class LmdbReader implements StateReader {
  constructor(private readonly db: Database<Buffer, Buffer>) {}

  get(key: Buffer): Buffer | undefined {
    if (key.length > LMDB_MAX_KEY_BYTES) return undefined;
    return this.db.getBinary(key) ?? undefined;
  }

  has(key: Buffer): boolean {
    if (key.length > LMDB_MAX_KEY_BYTES) return false;
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
