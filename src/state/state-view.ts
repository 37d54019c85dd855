/**
 * The read and read-write views of a key-value state that modules and the engine work on.
 * Keys are full state keys (LIP 0040: module prefix ‖ substore prefix ‖ key); values are
 * the encoded store values. Everything is synchronous: LMDB reads are synchronous, and keeping
 * the state machine free of awaits on every read is what makes block execution fast.
 */
export interface KeyValue {
  readonly key: Buffer;
  readonly value: Buffer;
}

/** Inclusive key range, ascending unless `reverse`. */
export interface IterateOptions {
  readonly gte: Buffer;
  readonly lte: Buffer;
  readonly reverse?: boolean;
  readonly limit?: number;
}

export interface StateReader {
  get(key: Buffer): Buffer | undefined;
  has(key: Buffer): boolean;
  iterate(options: IterateOptions): KeyValue[];
}

export interface StateWriter extends StateReader {
  set(key: Buffer, value: Buffer): void;
  del(key: Buffer): void;
  /** Marks a point to return to; snapshots nest (restore the inner one first or skip it). */
  snapshot(): number;
  /** Undoes every write made after `snapshot()` returned `id`. */
  restore(id: number): void;
}
