/**
 * Unsigned LEB128 varints, read side (LIP 0027), with lisk-codec's acceptance rules: at most 5
 * bytes and 32 bits for uint32, 10 bytes and 64 bits for uint64, and only the shortest form (no
 * final 0x00 byte after the first). Both the fast and the general decoder read varints here; the
 * general one turns the failure codes into its messages.
 */

/** The input ends (at `varintCursor.next`) before the varint does. */
export const VARINT_TRUNCATED = -1;
/** The varint has a superfluous final 0x00 byte. */
export const VARINT_NOT_SHORTEST = -2;
/** The value is too large for the type. */
export const VARINT_OUT_OF_RANGE = -3;

/** Where the last varint read ended (or, for VARINT_TRUNCATED, where the input did). */
export const varintCursor = { next: 0 };

function truncatedAt(p: number): number {
  varintCursor.next = p;
  return VARINT_TRUNCATED;
}

/** The uint32 varint at `p`, read up to `end`, or a negative VARINT_* code. */
export function readVarint32(buf: Uint8Array, p: number, end: number): number {
  let result = 0;
  let multiplier = 1;
  for (let i = 0; i < 5; i += 1) {
    if (p >= end) return truncatedAt(p);
    const byte = buf[p++] as number;
    // The 5th byte carries bits 28..31 only (and no continuation bit).
    if (i === 4 && byte > 0x0f) return VARINT_OUT_OF_RANGE;
    result += (byte & 0x7f) * multiplier;
    if (byte < 0x80) {
      if (byte === 0 && i > 0) return VARINT_NOT_SHORTEST;
      varintCursor.next = p;
      return result;
    }
    multiplier *= 0x80;
  }
  return VARINT_OUT_OF_RANGE;
}

/** The uint64 varint at `p`, read up to `end`, or a (negative, number) VARINT_* code. */
export function readVarint64(buf: Uint8Array, p: number, end: number): bigint | number {
  // Bits 0..48 (7 bytes) are exact in a double; the rest is added as a bigint.
  let low = 0;
  let multiplier = 1;
  for (let i = 0; i < 7; i += 1) {
    if (p >= end) return truncatedAt(p);
    const byte = buf[p++] as number;
    low += (byte & 0x7f) * multiplier;
    if (byte < 0x80) {
      if (byte === 0 && i > 0) return VARINT_NOT_SHORTEST;
      varintCursor.next = p;
      return BigInt(low);
    }
    multiplier *= 0x80;
  }
  let high = 0;
  multiplier = 1;
  for (let i = 7; i < 10; i += 1) {
    if (p >= end) return truncatedAt(p);
    const byte = buf[p++] as number;
    // The 10th byte carries bit 63 only.
    if (i === 9 && byte > 0x01) return VARINT_OUT_OF_RANGE;
    high += (byte & 0x7f) * multiplier;
    if (byte < 0x80) {
      if (byte === 0) return VARINT_NOT_SHORTEST;
      varintCursor.next = p;
      return BigInt(low) + (BigInt(high) << 49n);
    }
    multiplier *= 0x80;
  }
  return VARINT_OUT_OF_RANGE;
}
