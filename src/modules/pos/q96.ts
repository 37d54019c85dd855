/**
 * Unsigned fixed-point numbers with 96 fractional bits, the arithmetic of PoS reward sharing
 * (LIP 0057 "Reward sharing" Q96; lisk-sdk lisk-utils math/q.ts). A value is held as its raw
 * bigint v = x · 2^96. Every operation rounds exactly as lisk-utils does, including where it
 * truncates intermediate results, because the coefficients it produces are stored on chain.
 */
const BASE = 96n;
const ONE_RAW = 1n << BASE;

export type Q96 = bigint;

/** The Q96 value of an integer. */
export function q96(integer: bigint | number): Q96 {
  return BigInt(integer) << BASE;
}

/** A stored coefficient: big-endian bytes; empty bytes are zero. */
export function q96FromBytes(bytes: Uint8Array): Q96 {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')}`);
}

/** Minimal big-endian bytes; zero is the empty byte string (lisk-utils Q.toBuffer). */
export function q96ToBytes(value: Q96): Buffer {
  if (value === 0n) return Buffer.alloc(0);
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}

export function q96Add(a: Q96, b: Q96): Q96 {
  return a + b;
}

/** a − b; throws when the result would be negative (Q values are unsigned). */
export function q96Sub(a: Q96, b: Q96): Q96 {
  if (a < b) throw new RangeError('Invalid input, output cannot be negative.');
  return a - b;
}

/** a · b, truncated to 96 fractional bits. */
export function q96Mul(a: Q96, b: Q96): Q96 {
  return (a * b) >> BASE;
}

/** a / b, truncated to 96 fractional bits; throws on division by zero. */
export function q96Div(a: Q96, b: Q96): Q96 {
  if (b === 0n) throw new RangeError('Cannot be divided by zero.');
  return (a << BASE) / b;
}

/**
 * a · b / c without truncating the product (lisk-utils `muldiv`): the quotient carries 192
 * fractional bits and is then rounded down (the default) or up to 96 of them.
 */
export function q96MulDiv(a: Q96, b: Q96, c: Q96, roundUp = false): Q96 {
  if (c === 0n) throw new RangeError('Cannot be divided by zero.');
  const quotient = ((a * b) << BASE) / c;
  return roundUp ? ceilShift(quotient) : quotient >> BASE;
}

/** The integer part (rounding down). */
export function q96Floor(value: Q96): bigint {
  return value >> BASE;
}

/** The smallest integer not below the value. */
export function q96Ceil(value: Q96): bigint {
  return ceilShift(value);
}

function ceilShift(raw: bigint): bigint {
  const integer = raw >> BASE;
  return raw % ONE_RAW === 0n ? integer : integer + 1n;
}
