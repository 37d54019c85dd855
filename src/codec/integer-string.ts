/**
 * Decimal integer strings, the JSON form of uint64/sint64 (docs/protocol/codec.md). The accepted
 * grammar is the one lisk-validator's `uint64`/`int64` formats accept (an optional sign and
 * decimal digits), so anything an SDK endpoint schema lets through parses here too; hex,
 * exponents, blanks and empty strings are rejected (unlike `BigInt(string)`).
 */
const DECIMAL_INTEGER = /^[+-]?[0-9]+$/;

/** Parses a decimal integer string, or returns undefined when it is not one. */
export function parseIntegerString(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !DECIMAL_INTEGER.test(value)) return undefined;
  return BigInt(value);
}
