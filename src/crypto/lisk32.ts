/**
 * lisk32 addresses (LIP 0018, protocol.md §5.3): "lsk" ‖ 32 base-32 characters of the 20-byte
 * address (5-bit groups, most significant first) ‖ a 6-character BCH checksum computed over the
 * 32 data groups only (no human-readable-part expansion, unlike bech32).
 */
import { FormatError } from '../errors.js';

export const LISK32_PREFIX = 'lsk';
export const LISK32_ALPHABET = 'zxvcpmbn3465o978uyrtkqew2adsjhfg';
export const LISK32_ADDRESS_LENGTH = 41;
export const BINARY_ADDRESS_LENGTH = 20;

const DATA_GROUPS = 32;
const CHECKSUM_GROUPS = 6;
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const;

/** Character code → 5-bit value, or −1 for characters outside the alphabet. */
const CHAR_VALUES: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < LISK32_ALPHABET.length; i++) table[LISK32_ALPHABET.charCodeAt(i)] = i;
  return table;
})();

function polymodStep(chk: number, value: number): number {
  const top = chk >>> 25;
  let next = ((chk & 0x1ffffff) << 5) ^ value;
  for (let i = 0; i < 5; i++) {
    if ((top >>> i) & 1) next ^= GENERATOR[i]!;
  }
  return next;
}

/** Splits 20 bytes into 32 five-bit groups, most significant bits first. */
function toGroups(address: Uint8Array): number[] {
  const groups: number[] = [];
  let accumulator = 0;
  let bits = 0;
  for (const byte of address) {
    accumulator = ((accumulator << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      groups.push((accumulator >>> bits) & 31);
    }
  }
  return groups;
}

/** Encodes a 20-byte address as lisk32 (SDK `getLisk32AddressFromAddress`). */
export function encodeLisk32(address: Uint8Array): string {
  if (address.length !== BINARY_ADDRESS_LENGTH) {
    throw new FormatError(`Address must be ${BINARY_ADDRESS_LENGTH} bytes, got ${address.length}.`);
  }
  const groups = toGroups(address);
  let chk = 1;
  for (const group of groups) chk = polymodStep(chk, group);
  for (let i = 0; i < CHECKSUM_GROUPS; i++) chk = polymodStep(chk, 0);
  const mod = chk ^ 1;
  let out = LISK32_PREFIX;
  for (const group of groups) out += LISK32_ALPHABET[group];
  for (let p = 0; p < CHECKSUM_GROUPS; p++) out += LISK32_ALPHABET[(mod >>> (5 * (5 - p))) & 31];
  return out;
}

/**
 * Decodes a lisk32 address to its 20 bytes. Throws FormatError naming the first failed rule,
 * in the SDK's order: length, prefix, character set, checksum.
 */
export function decodeLisk32(text: string): Buffer {
  if (text.length !== LISK32_ADDRESS_LENGTH) {
    throw new FormatError(
      `Invalid lisk32 address: length must be ${LISK32_ADDRESS_LENGTH} characters, got ${text.length}.`,
    );
  }
  if (!text.startsWith(LISK32_PREFIX)) {
    throw new FormatError(
      `Invalid lisk32 address: prefix must be "${LISK32_PREFIX}", got "${text.slice(0, 3)}".`,
    );
  }
  const values = new Array<number>(DATA_GROUPS + CHECKSUM_GROUPS);
  for (let i = 0; i < values.length; i++) {
    const code = text.charCodeAt(LISK32_PREFIX.length + i);
    const value = code < 128 ? CHAR_VALUES[code]! : -1;
    if (value < 0) {
      throw new FormatError(
        `Invalid lisk32 address: character ${JSON.stringify(text[LISK32_PREFIX.length + i])} is not in the alphabet "${LISK32_ALPHABET}".`,
      );
    }
    values[i] = value;
  }
  let chk = 1;
  for (const value of values) chk = polymodStep(chk, value);
  if (chk !== 1) throw new FormatError('Invalid lisk32 address: checksum mismatch.');

  const out = Buffer.allocUnsafe(BINARY_ADDRESS_LENGTH);
  let accumulator = 0;
  let bits = 0;
  let index = 0;
  for (let i = 0; i < DATA_GROUPS; i++) {
    accumulator = ((accumulator << 5) | values[i]!) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (accumulator >>> bits) & 0xff;
    }
  }
  return out;
}

/** True when `text` is a valid lisk32 address (never throws). */
export function isValidLisk32(text: string): boolean {
  try {
    decodeLisk32(text);
    return true;
  } catch {
    return false;
  }
}

/** Throws FormatError with the reason when `text` is not a valid lisk32 address. */
export function validateLisk32(text: string): void {
  decodeLisk32(text);
}
