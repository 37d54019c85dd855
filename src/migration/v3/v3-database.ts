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
  next(callback: (error: Error | null | undefined, key?: Buffer, value?: Buffer) => void): void;
  end(callback: (error?: Error | null) => void): void;
}

interface RocksIteratorOptions {
  readonly gte?: Buffer;
  readonly lte?: Buffer;
  readonly limit?: number;
  readonly reverse?: boolean;
  readonly keys?: boolean;
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

const openRocksDatabase = createRequire(import.meta.url)('rocksdb') as (location: string) => RocksDatabase;

/** Bytes read ahead by the binding per native call during a scan. */
const SCAN_READ_AHEAD = 1 << 20;

/** One stored entry: the key as on disk and the value. */
export interface V3Entry {
  readonly key: Buffer;
  readonly value: Buffer;
}

export class V3Database {
  private closed = false;

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

  /** The value stored under `key` (on-disk form), or undefined. */
  get(key: Buffer): Promise<Buffer | undefined> {
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

  decode<T>(schema: Schema, value: Buffer, key: Buffer): T {
    try {
      return codec.decode<T>(schema, value);
    } catch (error) {
      throw new MigrationError(
        'MIGRATION_DB_CORRUPT',
        `The value of key ${logicalV3Key(key).toString('hex')} in ${this.path} does not decode: ${(error as Error).message}`,
      );
    }
  }

  /**
   * Every entry with `range.gte <= key <= range.lte`, in pages of at most `pageSize` entries:
   * each page is its own bounded read starting after the last key of the previous one, as
   * lisk-migrator's paged scans do, so memory holds one page at a time.
   */
  async *scanPages(range: { readonly gte: Buffer; readonly lte: Buffer }, pageSize: number): AsyncGenerator<readonly V3Entry[]> {
    let gte = range.gte;
    for (;;) {
      const page = await this.readRange({ gte, lte: range.lte, limit: pageSize });
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      gte = successor((page[page.length - 1] as V3Entry).key);
    }
  }

  /** The first entry in the range (the last one with `reverse`), or undefined. */
  async first(range: { readonly gte: Buffer; readonly lte: Buffer }, reverse = false): Promise<V3Entry | undefined> {
    const [entry] = await this.readRange({ ...range, limit: 1, reverse });
    return entry;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }

  private readRange(options: { gte: Buffer; lte: Buffer; limit: number; reverse?: boolean }): Promise<V3Entry[]> {
    const iterator = this.db.iterator({ ...options, keyAsBuffer: true, valueAsBuffer: true, highWaterMark: SCAN_READ_AHEAD });
    const entries: V3Entry[] = [];
    return new Promise((resolve, reject) => {
      const finish = (failure?: Error) =>
        iterator.end(() => {
          if (failure) reject(this.readError(failure));
          else resolve(entries);
        });
      const step = (error: Error | null | undefined, key?: Buffer, value?: Buffer): void => {
        if (error) {
          finish(error);
        } else if (key === undefined || value === undefined) {
          finish();
        } else {
          entries.push({ key, value });
          iterator.next(step);
        }
      };
      iterator.next(step);
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
