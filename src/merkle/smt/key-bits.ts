/**
 * Bit access on SMT keys and bitmaps (docs/protocol/merkle-trees.md).
 *
 * Key bit i is bit (7 − i % 8) of byte ⌊i / 8⌋ (most significant bit first); 0 means left.
 * A proof bitmap is a big-endian integer whose bit d (counting from the least significant bit)
 * tells whether the sibling at depth d is non-empty: the root level is the lowest bit and the
 * deepest level the highest, with no leading zero bits. So for both, no bit string is ever built.
 */

/** Bit `index` of `key` (0 or 1), MSB first. */
export function keyBit(key: Uint8Array, index: number): number {
  return ((key[index >> 3] as number) >> (7 - (index & 7))) & 1;
}

/** Number of leading bits `a` and `b` share (bounded by the shorter one). */
export function commonPrefixBits(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const diff = (a[i] as number) ^ (b[i] as number);
    if (diff !== 0) return i * 8 + Math.clz32(diff) - 24;
  }
  return length * 8;
}

/** Number of significant bits of a bitmap: the depth of the node its query ends at. */
export function bitmapHeight(bitmap: Uint8Array): number {
  for (let i = 0; i < bitmap.length; i += 1) {
    const byte = bitmap[i] as number;
    if (byte !== 0) return (bitmap.length - i - 1) * 8 + (32 - Math.clz32(byte));
  }
  return 0;
}

/** Bitmap bit for depth `depth` (1 = the sibling at that depth is non-empty). */
export function bitmapBit(bitmap: Uint8Array, depth: number): number {
  const byte = bitmap[bitmap.length - 1 - (depth >> 3)];
  return byte === undefined ? 0 : (byte >> (depth & 7)) & 1;
}

/** Bitmap bytes for sibling flags listed root first (`flags[d]` for depth d). */
export function encodeBitmap(flags: readonly number[]): Buffer {
  const bitmap = Buffer.alloc((flags.length + 7) >> 3);
  for (let depth = 0; depth < flags.length; depth += 1) {
    if (flags[depth] === 1) {
      const at = bitmap.length - 1 - (depth >> 3);
      bitmap[at] = (bitmap[at] as number) | (1 << (depth & 7));
    }
  }
  return bitmap;
}
