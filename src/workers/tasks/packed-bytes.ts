/**
 * Lists of byte strings packed into one buffer plus end offsets, for messages to worker threads.
 * Cloning (or transferring) a Uint8Array moves its whole backing ArrayBuffer: a 48-byte key
 * sliced from a decoded block would carry the block along. Packing copies only the bytes, and
 * the two packed buffers can be transferred rather than copied.
 */
export interface PackedBytes {
  readonly bytes: Uint8Array;
  /** `ends[i]` is where item i stops in `bytes`; item i starts where item i - 1 stops. */
  readonly ends: Uint32Array;
}

export function packBytes(items: readonly Uint8Array[]): PackedBytes {
  let total = 0;
  for (const item of items) total += item.length;
  const bytes = new Uint8Array(total);
  const ends = new Uint32Array(items.length);
  let offset = 0;
  items.forEach((item, i) => {
    bytes.set(item, offset);
    offset += item.length;
    ends[i] = offset;
  });
  return { bytes, ends };
}

/** The items, as views into `packed.bytes` (no copies). */
export function unpackBytes(packed: PackedBytes): Uint8Array[] {
  const items: Uint8Array[] = [];
  let start = 0;
  for (const end of packed.ends) {
    if (end < start || end > packed.bytes.length) throw new RangeError('Packed bytes: offsets out of order or out of range.');
    items.push(packed.bytes.subarray(start, end));
    start = end;
  }
  return items;
}

/** The buffers to hand over to the thread instead of copying them. */
export function transferablesOf(...packs: PackedBytes[]): ArrayBuffer[] {
  return packs.flatMap((pack) => [pack.bytes.buffer as ArrayBuffer, pack.ends.buffer as ArrayBuffer]);
}
