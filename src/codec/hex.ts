/**
 * Hex helpers for the JSON edge (bytes are lowercase hex in the codec JSON form).
 * Parsing is strict, unlike Node's `Buffer.from(s, 'hex')`, which silently stops at the
 * first bad character.
 */
import { FormatError } from '../errors.js';
import { bufferView } from './buffer-view.js';

/** Lowercase hex of `bytes`; `''` for empty bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  return bufferView(bytes).toString('hex');
}

/**
 * Why `value` is not a hex string, or `undefined` when it is one: a string of even length made
 * of 0-9, a-f, A-F, with no `0x` prefix. The empty string is valid (empty bytes).
 */
export function describeInvalidHex(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a hex string';
  if (value.length % 2 !== 0) return `hex string has odd length (${value.length})`;
  const bad = /[^0-9a-fA-F]/.exec(value);
  if (bad) return `hex string has a non-hex character at position ${bad.index}`;
  return undefined;
}

/** True when `value` is a valid hex string (see `describeInvalidHex`). */
export function isHex(value: unknown): value is string {
  return describeInvalidHex(value) === undefined;
}

/** Strictly parses a hex string into new bytes; throws FormatError on odd length or bad characters. */
export function hexToBytes(hex: string): Buffer {
  if (typeof hex === 'string' && hex.length % 2 === 0) {
    const bytes = Buffer.from(hex, 'hex');
    // Node stops decoding at the first invalid pair, so a full-length result proves validity.
    if (bytes.length * 2 === hex.length) return bytes;
  }
  throw new FormatError(`Invalid hex: ${describeInvalidHex(hex) ?? 'malformed'}`);
}
