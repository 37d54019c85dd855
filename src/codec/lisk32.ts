/**
 * lisk32 addresses (LIP 0018; docs/protocol/crypto.md): "lsk" + 32 base32 characters for the 20
 * address bytes (five-bit groups, most significant first) + 6 checksum characters from a BCH code
 * over the 32 data groups (no prefix expansion, unlike bech32).
 *
 * The codec uses this for bytes with `format: 'lisk32'`; src/crypto re-exports it.
 */
import { FormatError } from '../errors.js';

export const LISK32_PREFIX = 'lsk';
export const ADDRESS_LENGTH = 20;

const ALPHABET = 'zxvcpmbn3465o978uyrtkqew2adsjhfg';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const DATA_GROUPS = 32; // 160 bits / 5
const CHECKSUM_GROUPS = 6;

/** Reverse lookup: character code -> five-bit value, or -1 outside the alphabet. */
const CHAR_VALUE = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i += 1) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

function polymod(groups: ArrayLike<number>): number {
  let chk = 1;
  for (let i = 0; i < groups.length; i += 1) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ (groups[i] as number);
    for (let bit = 0; bit < 5; bit += 1) {
      if ((top >>> bit) & 1) chk ^= GENERATOR[bit] as number;
    }
  }
  return chk;
}

function toFiveBitGroups(address: Uint8Array): number[] {
  const groups: number[] = [];
  let accumulator = 0;
  let bits = 0;
  for (const byte of address) {
    accumulator = ((accumulator << 8) | byte) & 0xfff; // at most 12 live bits are needed
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      groups.push((accumulator >>> bits) & 31);
    }
  }
  return groups;
}

/** Encodes a 20-byte address as lisk32; throws FormatError for any other length. */
export function encodeLisk32Address(address: Uint8Array, prefix: string = LISK32_PREFIX): string {
  if (!(address instanceof Uint8Array) || address.length !== ADDRESS_LENGTH) {
    throw new FormatError(`A lisk32 address needs exactly ${ADDRESS_LENGTH} bytes`);
  }
  const groups = toFiveBitGroups(address);
  const mod = polymod([...groups, 0, 0, 0, 0, 0, 0]) ^ 1;
  let text = prefix;
  for (const group of groups) text += ALPHABET[group];
  for (let p = 0; p < CHECKSUM_GROUPS; p += 1) text += ALPHABET[(mod >>> (5 * (5 - p))) & 31];
  return text;
}

/** Why `value` is not a valid lisk32 address, or undefined when it is one. */
export function describeInvalidLisk32(value: unknown, prefix: string = LISK32_PREFIX): string | undefined {
  if (typeof value !== 'string') return 'must be a lisk32 address string';
  const expectedLength = prefix.length + DATA_GROUPS + CHECKSUM_GROUPS;
  if (value.length !== expectedLength) return `lisk32 address length must be ${expectedLength} characters`;
  if (!value.startsWith(prefix)) return `lisk32 address prefix must be "${prefix}"`;
  const groups = new Array<number>(DATA_GROUPS + CHECKSUM_GROUPS);
  for (let i = 0; i < groups.length; i += 1) {
    const code = value.charCodeAt(prefix.length + i);
    const group = code < 128 ? (CHAR_VALUE[code] as number) : -1;
    if (group < 0) return `lisk32 address has an invalid character at position ${prefix.length + i}`;
    groups[i] = group;
  }
  if (polymod(groups) !== 1) return 'lisk32 address has an invalid checksum';
  return undefined;
}

/** True when `value` is a valid lisk32 address (length, prefix, alphabet and checksum). */
export function isValidLisk32Address(value: unknown, prefix: string = LISK32_PREFIX): value is string {
  return describeInvalidLisk32(value, prefix) === undefined;
}

/** Decodes a lisk32 address into its 20 bytes, validating the checksum; throws FormatError. */
export function decodeLisk32Address(value: string, prefix: string = LISK32_PREFIX): Buffer {
  const problem = describeInvalidLisk32(value, prefix);
  if (problem !== undefined) throw new FormatError(`Invalid lisk32 address: ${problem}`);
  const address = Buffer.allocUnsafe(ADDRESS_LENGTH);
  let accumulator = 0;
  let bits = 0;
  let out = 0;
  for (let i = 0; i < DATA_GROUPS; i += 1) {
    accumulator = ((accumulator << 5) | (CHAR_VALUE[value.charCodeAt(prefix.length + i)] as number)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      address[out] = (accumulator >>> bits) & 0xff;
      out += 1;
    }
  }
  return address;
}

/** The lisk32 helpers as one object: `lisk32.encode`, `lisk32.decode`, `lisk32.isValid`. */
export const lisk32 = {
  encode: encodeLisk32Address,
  decode: decodeLisk32Address,
  isValid: isValidLisk32Address,
} as const;
