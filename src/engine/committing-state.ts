import type { StateChange } from '../state/overlay-state.js';
import type { IterateOptions, KeyValue, StateReader } from '../state/state-view.js';

/**
 * The state a block leaves behind, readable while its transaction is still on LMDB's write
 * thread: the block's net changes (OverlayState.changes(), sorted by key) in front of the stored
 * state. The next block executes on it (ChainProcessor.processBlocks). Whether the transaction
 * has become visible meanwhile makes no difference: the stored values are then the changes.
 *
 * Built from the net changes rather than the block's overlay itself: lookups are one map probe,
 * a range only visits the changes inside it, and the overlay's journal can be dropped.
 */
export class CommittingState implements StateReader {
  /** Changed keys (latin1 strings, one character per byte) to their new value; null: deleted. */
  private readonly byKey = new Map<string, Buffer | null>();

  constructor(
    private readonly stored: StateReader,
    /** Sorted by key, each key once. */
    private readonly changes: readonly StateChange[],
  ) {
    for (const { key, value } of changes) this.byKey.set(key.toString('latin1'), value ?? null);
  }

  get(key: Buffer): Buffer | undefined {
    const changed = this.byKey.get(key.toString('latin1'));
    if (changed === undefined) return this.stored.get(key);
    return changed ?? undefined;
  }

  has(key: Buffer): boolean {
    return this.get(key) !== undefined;
  }

  iterate(options: IterateOptions): KeyValue[] {
    const { gte, lte, reverse, limit } = options;
    if (limit !== undefined && limit <= 0) return [];
    const { changes } = this;
    let index = firstAtOrAfter(changes, gte);
    if (index >= changes.length || (changes[index] as StateChange).key.compare(lte) > 0) {
      return this.stored.iterate(options);
    }
    const merged = new Map<string, KeyValue>();
    for (const item of this.stored.iterate({ gte, lte, reverse })) merged.set(item.key.toString('latin1'), item);
    for (; index < changes.length; index += 1) {
      const { key, value } = changes[index] as StateChange;
      if (key.compare(lte) > 0) break;
      const id = key.toString('latin1');
      if (value === undefined) merged.delete(id);
      else merged.set(id, { key, value });
    }
    const result = [...merged.values()].sort((a, b) => a.key.compare(b.key));
    if (reverse) result.reverse();
    return limit !== undefined ? result.slice(0, limit) : result;
  }
}

/** The index of the first change whose key is not below `key` (changes.length if none). */
function firstAtOrAfter(changes: readonly StateChange[], key: Buffer): number {
  let low = 0;
  let high = changes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((changes[middle] as StateChange).key.compare(key) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
