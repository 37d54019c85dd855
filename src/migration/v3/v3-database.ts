/**
 * A Lisk Core 3 RocksDB database (blockchain.db, forger.db), opened read-only. Lisk Core 3 used
 * RocksDB through `@liskhq/lisk-db` 0.2; the `rocksdb` binding reads the same files (its build has
 * Snappy, which those databases use). Read-only mode takes no lock and writes nothing, so a copy
 * that a Lisk Core 3 node still has open can be read, and the operator's directory is untouched.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { codec, type Schema } from '../../codec/index.js';
import { MigrationError } from '../migration-error.js';
import { logicalV3Key } from './v3-keys.js';

type Callback<T> = (error: Error | null | undefined, value?: T) => void;

interface RocksIterator {
  /** The native iterator handle (the rocksdb binding's own iterator wrapper keeps it here). */
  readonly context: unknown;
  end(callback: (error?: Error | null) => void): void;
}

interface RocksIteratorOptions {
  readonly gte?: Buffer;
  readonly lte?: Buffer;
  readonly limit?: number;
  readonly reverse?: boolean;
  readonly keyAsBuffer: true;
  readonly valueAsBuffer: true;
  readonly highWaterMark?: number;
}

interface RocksDatabase {
  open(options: { readonly readOnly: boolean; readonly createIfMissing: boolean }, callback: (error?: Error | null) => void): void;
  close(callback: (error?: Error | null) => void): void;
  get(key: Buffer, options: { readonly asBuffer: true }, callback: Callback<Buffer>): void;
  iterator(options: RocksIteratorOptions): RocksIterator;
}

/**
 * The binding's batch read: up to 1000 entries per call, as one array of alternating values and
 * keys in reverse order (the package's own iterator pops them one by one, one event-loop turn
 * per entry; taking the whole batch at once is several times faster over millions of entries).
 */
interface RocksBinding {
  iterator_next(context: unknown, callback: (error: Error | null, entries: Buffer[], finished: boolean) => void): void;
}

const requireFromHere = createRequire(import.meta.url);
const openRocksDatabase = requireFromHere('rocksdb') as (location: string) => RocksDatabase;
const rocksBinding = requireFromHere('rocksdb/binding.js') as RocksBinding;

/** Entries per page when `first` has to visit a range. */
const FIRST_PAGE = 10_000;

/** Bytes read ahead by the binding per native call during a scan. */
const SCAN_READ_AHEAD = 1 << 20;

export interface KeyRange {
  readonly gte: Buffer;
  readonly lte: Buffer;
}

/** On-disk key (hex) → the value to see instead of the stored one, or null for "absent". */
export type V3Overlay = Map<string, Buffer | null>;

/** One stored entry: the key as on disk and the value. */
export interface V3Entry {
  readonly key: Buffer;
  readonly value: Buffer;
}

export class V3Database {
  private closed = false;
  /** Changes seen over the stored entries (see v3-rollback.ts), if any. */
  private overlay: V3Overlay | undefined;
  /** The overlay's entries that have a value, sorted by key. */
  private overlayPuts: V3Entry[] = [];

  private constructor(
    readonly path: string,
    private readonly db: RocksDatabase,
  ) {}

  /**
   * Opens `path` read-only. A missing directory, a directory that is no RocksDB database and a
   * database RocksDB cannot open (truncated or corrupt files) each fail with their own
   * MigrationError code; nothing in the directory is created or changed.
   */
  static async open(path: string): Promise<V3Database> {
    if (!existsSync(path) || !statSync(path).isDirectory()) {
      throw new MigrationError('MIGRATION_DB_MISSING', `The Lisk Core v3 database ${path} does not exist or is not a directory.`);
    }
    if (!existsSync(join(path, 'CURRENT'))) {
      throw new MigrationError('MIGRATION_DB_NOT_ROCKSDB', `${path} is not a RocksDB database (it has no CURRENT file).`);
    }
    const db = openRocksDatabase(path);
    await new Promise<void>((resolve, reject) => {
      db.open({ readOnly: true, createIfMissing: false }, (error) => {
        if (error) reject(new MigrationError('MIGRATION_DB_CORRUPT', `Cannot open the Lisk Core v3 database ${path}: ${error.message}`));
        else resolve();
      });
    });
    return new V3Database(path, db);
  }

  /**
   * From now on, reads see `overlay` over the stored entries: a key it maps to null is absent,
   * a key it maps to a value has that value. The files are not touched.
   */
  setOverlay(overlay: V3Overlay): void {
    this.overlay = overlay;
    this.overlayPuts = [...overlay]
      .filter((entry): entry is [string, Buffer] => entry[1] !== null)
      .map(([key, value]) => ({ key: Buffer.from(key, 'hex'), value }))
      .sort((a, b) => Buffer.compare(a.key, b.key));
  }

  /** The value stored under `key` (on-disk form), or undefined. */
  get(key: Buffer): Promise<Buffer | undefined> {
    const overlaid = this.overlay?.get(key.toString('hex'));
    if (overlaid !== undefined) return Promise.resolve(overlaid ?? undefined);
    return new Promise((resolve, reject) => {
      this.db.get(key, { asBuffer: true }, (error, value) => {
        if (!error) resolve(value);
        else if (/NotFound/i.test(error.message)) resolve(undefined);
        else reject(this.readError(error));
      });
    });
  }

  /** The value under `key` decoded with `schema`; a value that does not decode is corruption. */
  async getDecoded<T>(key: Buffer, schema: Schema): Promise<T | undefined> {
    const value = await this.get(key);
    return value === undefined ? undefined : this.decode<T>(schema, value, key);
  }

  /** `read(value)` (a decoder), with a failure reported as corruption of the value under `key`. */
  decodeWith<T>(key: Buffer, value: Buffer, read: (value: Buffer) => T): T {
    try {
      return read(value);
    } catch (error) {
      throw new MigrationError(
        'MIGRATION_DB_CORRUPT',
        `The value of key ${logicalV3Key(key).toString('hex')} in ${this.path} does not decode: ${(error as Error).message}`,
      );
    }
  }

  decode<T>(schema: Schema, value: Buffer, key: Buffer): T {
    return this.decodeWith(key, value, (bytes) => codec.decode<T>(schema, bytes));
  }

  /**
   * Visits every entry with `range.gte <= key <= range.lte` in key order, reading pages of at
   * most `pageSize` entries: each page is its own bounded read starting after the last key of
   * the previous one, as lisk-migrator's paged scans are. Entries are handed over as they are
   * read, so memory holds one native batch, not the range. Returns the number visited.
   */
  async forEach(range: KeyRange, pageSize: number, visit: (entry: V3Entry) => void): Promise<number> {
    const merged = this.mergeOverlay(range, visit);
    let gte = range.gte;
    for (;;) {
      let last: Buffer | undefined;
      const read = await this.readRange({ gte, lte: range.lte, limit: pageSize }, (entry) => {
        last = entry.key;
        merged.visit(entry);
      });
      if (read < pageSize || last === undefined) return merged.end();
      gte = successor(last);
    }
  }

  /**
   * Wraps a visitor of stored entries in key order so that it sees the overlay: entries the
   * overlay removes are skipped, replaced values are swapped in, and entries only the overlay has
   * are visited where they sort. `end` visits the overlay's entries past the last stored one.
   */
  private mergeOverlay(range: KeyRange, visit: (entry: V3Entry) => void): { visit: (entry: V3Entry) => void; end: () => number } {
    let visited = 0;
    const overlay = this.overlay;
    if (overlay === undefined) {
      return {
        visit: (entry) => {
          visited += 1;
          visit(entry);
        },
        end: () => visited,
      };
    }
    const puts = this.overlayPuts.filter(({ key }) => Buffer.compare(key, range.gte) >= 0 && Buffer.compare(key, range.lte) <= 0);
    let next = 0;
    const visitPutsBefore = (key: Buffer | undefined): void => {
      while (next < puts.length && (key === undefined || Buffer.compare((puts[next] as V3Entry).key, key) < 0)) {
        visited += 1;
        visit(puts[next] as V3Entry);
        next += 1;
      }
    };
    return {
      visit: (entry) => {
        visitPutsBefore(entry.key);
        const overlaid = overlay.get(entry.key.toString('hex'));
        if (overlaid === undefined) {
          visited += 1;
          visit(entry);
        } else if (overlaid !== null) {
          // Its put is visited here, in place of the stored value.
          next += 1;
          visited += 1;
          visit({ key: entry.key, value: overlaid });
        }
      },
      end: () => {
        visitPutsBefore(undefined);
        return visited;
      },
    };
  }

  /** The entries of the range in pages of at most `pageSize`, for callers that await per entry. */
  async *scanPages(range: KeyRange, pageSize: number): AsyncGenerator<readonly V3Entry[]> {
    if (this.overlay !== undefined) throw new Error('scanPages reads stored entries only; it does not apply an overlay');
    let gte = range.gte;
    for (;;) {
      const page: V3Entry[] = [];
      await this.readRange({ gte, lte: range.lte, limit: pageSize }, (entry) => page.push(entry));
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      gte = successor((page[page.length - 1] as V3Entry).key);
    }
  }

  /** The first entry in the range (the last one with `reverse`), or undefined. */
  async first(range: KeyRange, reverse = false): Promise<V3Entry | undefined> {
    if (this.overlay !== undefined) {
      // Rare (the tip of a rolled-back view): visit the range, keep the extreme.
      let found: V3Entry | undefined;
      await this.forEach(range, FIRST_PAGE, (entry) => {
        if (found === undefined || reverse) found = entry;
      });
      return found;
    }
    let found: V3Entry | undefined;
    await this.readRange({ ...range, limit: 1, reverse }, (entry) => {
      found = entry;
    });
    return found;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }

  private readRange(
    options: { gte: Buffer; lte: Buffer; limit: number; reverse?: boolean },
    visit: (entry: V3Entry) => void,
  ): Promise<number> {
    const iterator = this.db.iterator({ ...options, keyAsBuffer: true, valueAsBuffer: true, highWaterMark: SCAN_READ_AHEAD });
    let count = 0;
    return new Promise((resolve, reject) => {
      const finish = (failure?: Error): void =>
        iterator.end(() => {
          if (failure) reject(failure instanceof MigrationError ? failure : this.readError(failure));
          else resolve(count);
        });
      const onBatch = (error: Error | null, entries: Buffer[], finished: boolean): void => {
        if (error) {
          finish(error);
          return;
        }
        try {
          for (let index = entries.length - 1; index > 0; index -= 2) {
            visit({ key: entries[index] as Buffer, value: entries[index - 1] as Buffer });
            count += 1;
          }
        } catch (failure) {
          finish(failure as Error);
          return;
        }
        if (finished) finish();
        else rocksBinding.iterator_next(iterator.context, onBatch);
      };
      rocksBinding.iterator_next(iterator.context, onBatch);
    });
  }

  private readError(error: Error): MigrationError {
    return new MigrationError('MIGRATION_DB_CORRUPT', `Cannot read the Lisk Core v3 database ${this.path}: ${error.message}`, undefined, {
      cause: error,
    });
  }
}

/** The smallest key above `key`: the key with one zero byte appended. */
function successor(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.alloc(1)]);
}

/** Runs `use` on the database at `path` opened read-only, and closes it whatever happens. */
export async function withV3Database<T>(path: string, use: (db: V3Database) => Promise<T>): Promise<T> {
  const db = await V3Database.open(path);
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}
