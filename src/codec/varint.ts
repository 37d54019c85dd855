/**
 * Unsigned LEB128 varints, write side (LIP 0027): 7 bits per byte, least significant
 * group first, high bit set on every byte but the last. Sizes are computed without writing so
 * the encoder can allocate the output once.
 */

const TWO_POW_32 = 0x1_0000_0000;
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** Bytes needed for a non-negative safe integer. */
export function varintSize(n: number): number {
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x20_0000) return 3;
  if (n < 0x1000_0000) return 4;
  if (n < 0x8_0000_0000) return 5;
  let size = 5;
  let rest = Math.floor(n / 0x8_0000_0000);
  while (rest > 0) {
    size += 1;
    rest = Math.floor(rest / 0x80);
  }
  return size;
}

/** Bytes needed for a non-negative bigint below 2^64. */
export function bigVarintSize(v: bigint): number {
  if (v <= MAX_SAFE_BIG) return varintSize(Number(v));
  // 2^53 <= v < 2^64: 8 bytes hold 56 bits, 9 hold 63, 10 hold 70.
  if (v < 0x100_0000_0000_0000n) return 8;
  if (v < 0x8000_0000_0000_0000n) return 9;
  return 10;
}

/** Writes a non-negative safe integer at `pos`; returns the position after it. */
export function writeVarint(buf: Uint8Array, pos: number, n: number): number {
  // Division only for the rare values that do not fit in 32 bits; `>>>` is exact below 2^32.
  while (n >= TWO_POW_32) {
    buf[pos++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  while (n > 0x7f) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
  return pos;
}

/** Writes a non-negative bigint below 2^64 at `pos`; returns the position after it. */
export function writeBigVarint(buf: Uint8Array, pos: number, v: bigint): number {
  if (v <= MAX_SAFE_BIG) return writeVarint(buf, pos, Number(v));
  let lo = Number(v & 0xffff_ffffn);
  let hi = Number(v >> 32n);
  while (hi !== 0) {
    buf[pos++] = (lo & 0x7f) | 0x80;
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
  }
  return writeVarint(buf, pos, lo);
}

/** The varint bytes of a small non-negative integer (used for precomputed field keys). */
export function varintBytes(n: number): Buffer {
  const out = Buffer.allocUnsafe(varintSize(n));
  writeVarint(out, 0, n);
  return out;
}

/** Zigzag mapping of a sint32 (as a number, exact up to 2^32 - 1). */
export function zigzag32(v: number): number {
  return v >= 0 ? v * 2 : -v * 2 - 1;
}

/** Zigzag mapping of a sint64. */
export function zigzag64(v: bigint): bigint {
  return v >= 0n ? v << 1n : (-v << 1n) - 1n;
}
