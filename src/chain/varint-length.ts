/**
 * Byte lengths of lisk-codec varints (7 bits per byte, LIP 0027). The chain room uses
 * them to find where a trailing field starts in an encoding it already holds (signing bytes are
 * a prefix of the full encoding) and to size a fee without encoding it.
 */

/** Length of the varint of a non-negative integer below 2^32 (a length prefix, a uint32). */
export function varintLength(value: number): number {
  let length = 1;
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) length += 1;
  return length;
}

/** Length of the varint of a uint64 value. */
export function uint64VarintLength(value: bigint): number {
  let length = 1;
  for (let rest = value >> 7n; rest > 0n; rest >>= 7n) length += 1;
  return length;
}
