import { latin1Key } from '../bytes.js';

/**
 * Keys and values of a batch, sorted by key with duplicates removed (the last write of a key
 * wins, as when lisk-db collects a batch into a map). Sorting once up front lets the update split
 * every key range by one bit with a binary search instead of partitioning.
 */
export interface SortedBatch {
  readonly keys: Uint8Array[];
  readonly values: Uint8Array[];
}

export function sortBatch(keys: readonly Uint8Array[], values: readonly Uint8Array[]): SortedBatch {
  const count = keys.length;
  // Keys are compared as one-char-per-byte strings: the same order as the bytes, and V8 compares
  // strings several times faster than Buffer.compare can (no native call per comparison).
  const ids = new Array<string>(count);
  const order = new Array<number>(count);
  for (let i = 0; i < count; i += 1) {
    ids[i] = latin1Key(keys[i] as Uint8Array);
    order[i] = i;
  }
  // Ties are broken by input position, so the last of a run of equal keys is the last write.
  order.sort((a, b) => {
    const x = ids[a] as string;
    const y = ids[b] as string;
    return x < y ? -1 : x > y ? 1 : a - b;
  });

  const sortedKeys: Uint8Array[] = [];
  const sortedValues: Uint8Array[] = [];
  for (let i = 0; i < count; i += 1) {
    const position = order[i] as number;
    const next = order[i + 1];
    if (next !== undefined && ids[position] === ids[next]) continue;
    sortedKeys.push(keys[position] as Uint8Array);
    sortedValues.push(values[position] as Uint8Array);
  }
  return { keys: sortedKeys, values: sortedValues };
}
