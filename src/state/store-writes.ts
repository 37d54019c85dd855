import type { Database, RootDatabase } from 'lmdb';

type Table = Database<Buffer, Buffer>;

/**
 * Where the writes of one block go. `DIRECT_WRITES` writes into the write transaction open on this
 * thread (`env.transactionSync`); a `StoreWrites` collects them, for `StateDb.transactionAsync` to
 * hand to LMDB's write thread as one transaction once everything that could refuse the block has
 * run. The chain store takes the same shape, so a block, its events and its state stay together.
 */
export interface WriteSink {
  put(table: Table, key: Buffer, value: Buffer): void;
  remove(table: Table, key: Buffer): void;
}

/** Writes straight into the write transaction open on this thread. */
export const DIRECT_WRITES: WriteSink = {
  put: (table, key, value) => {
    table.putSync(key, value);
  },
  remove: (table, key) => {
    table.removeSync(key);
  },
};

/**
 * The writes of one transaction, collected in order and issued later in one go.
 *
 * Why collect instead of calling lmdb-js's asynchronous `put` at once: those writes cannot be
 * rolled back. If the code that builds a block's writes threw half-way (a store inconsistency, a
 * bug), the writes already queued would still be committed; collected, they are simply dropped.
 * Values are kept by reference until the commit: a value must not be changed after it was put.
 */
export class StoreWrites implements WriteSink {
  private readonly tables: Table[] = [];
  private readonly keys: Buffer[] = [];
  /** undefined: the key is removed. */
  private readonly values: (Buffer | undefined)[] = [];

  put(table: Table, key: Buffer, value: Buffer): void {
    this.tables.push(table);
    this.keys.push(key);
    this.values.push(value);
  }

  remove(table: Table, key: Buffer): void {
    this.tables.push(table);
    this.keys.push(key);
    this.values.push(undefined);
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * Queues every write for LMDB's write thread as one transaction (lmdb-js `batch`: the writes of
   * one synchronous call are never split between transactions) and returns its promise, which
   * settles once the transaction is committed and flushed to disk, or rejects when it failed.
   * The calling thread only encodes the instructions; the B-tree work, the commit and the fsync
   * run on the write thread.
   */
  issue(env: RootDatabase): Promise<unknown> {
    const { tables, keys, values } = this;
    const commit = env.batch(() => {
      for (let i = 0; i < keys.length; i++) {
        const value = values[i];
        const table = tables[i] as Table;
        if (value === undefined) void table.remove(keys[i] as Buffer);
        else void table.put(keys[i] as Buffer, value);
      }
    });
    // lmdb-js opens each transaction with an instruction of its own (its event-turn batch), whose
    // promise it drops; when the commit fails, that promise rejects with nobody listening, which
    // would end the process before the caller's StoreWriteError is heard. `committed` is that
    // promise once the instruction is written: during the loop above for a large batch, or in the
    // lmdb-js task queued by it, which runs before the one queued here.
    const listen = (): void => {
      env.committed.then(ignore, ignore);
    };
    listen();
    setImmediate(listen);
    return commit;
  }
}

function ignore(): void {}
