import { bytesEqual } from '../bytes.js';
import type { SmtNodeStore, SmtWriteSet } from './types.js';

/** A stored node; nodes whose hashes share the 30-bit map key are chained. */
interface Entry {
  readonly hash: Buffer;
  readonly data: Buffer;
  next: Entry | undefined;
}

/**
 * SMT node store held in memory (tests, per-block event trees, any tree without a database).
 *
 * Node hashes are SHA-256 outputs, so their first bytes are already uniformly spread: the map is
 * keyed by 30 of those bits, a small integer V8 hashes and compares far faster than a string
 * built from the hash. Hashes that share those bits (a few hundred pairs per million nodes) are
 * chained and told apart by a full comparison, so lookups are always exact.
 */
export class InMemorySmtNodeStore implements SmtNodeStore {
  private readonly buckets = new Map<number, Entry>();
  private count = 0;

  get(hash: Buffer): Buffer | undefined {
    for (let entry = this.buckets.get(bucketOf(hash)); entry !== undefined; entry = entry.next) {
      if (bytesEqual(entry.hash, hash)) return entry.data;
    }
    return undefined;
  }

  /** Number of stored nodes. */
  get size(): number {
    return this.count;
  }

  /** Every stored node, in no particular order. */
  *entries(): IterableIterator<{ readonly hash: Buffer; readonly data: Buffer }> {
    for (const first of this.buckets.values()) {
      for (let entry: Entry | undefined = first; entry !== undefined; entry = entry.next) yield entry;
    }
  }

  /** Stores `data` under `hash` (replacing any node stored under that hash). */
  set(hash: Buffer, data: Buffer): void {
    const bucket = bucketOf(hash);
    const first = this.buckets.get(bucket);
    for (let entry = first; entry !== undefined; entry = entry.next) {
      if (bytesEqual(entry.hash, hash)) {
        this.unlink(bucket, entry);
        break;
      }
    }
    this.buckets.set(bucket, { hash, data, next: this.buckets.get(bucket) });
    this.count += 1;
  }

  /** Deletes the node stored under `hash`, if any. */
  delete(hash: Buffer): void {
    const bucket = bucketOf(hash);
    for (let entry = this.buckets.get(bucket); entry !== undefined; entry = entry.next) {
      if (bytesEqual(entry.hash, hash)) {
        this.unlink(bucket, entry);
        return;
      }
    }
  }

  /**
   * Stores the nodes of a write set. With `prune`, the nodes it reports as no longer referenced
   * are deleted first; leave it off while older roots must stay readable.
   */
  apply(writeSet: SmtWriteSet, prune = false): void {
    if (prune) {
      for (const hash of writeSet.removed) this.delete(hash);
    }
    for (const { hash, data } of writeSet.writes) this.set(hash, data);
  }

  private unlink(bucket: number, target: Entry): void {
    const first = this.buckets.get(bucket);
    if (first === target) {
      if (target.next === undefined) this.buckets.delete(bucket);
      else this.buckets.set(bucket, target.next);
    } else {
      let previous = first;
      while (previous !== undefined && previous.next !== target) previous = previous.next;
      if (previous !== undefined) previous.next = target.next;
    }
    this.count -= 1;
  }
}

/** 30 bits of the hash: always a V8 small integer. */
function bucketOf(hash: Buffer): number {
  const low = (hash[0] as number) | ((hash[1] as number) << 8);
  const high = (hash[2] as number) | (((hash[3] as number) & 0x3f) << 8);
  return low | (high << 16);
}
