/** Strict hex decoding for externally supplied encrypted objects (SDK `hexToBuffer` rules). */
import { FormatError } from '../errors.js';

const HEX = /^[0-9a-fA-F]*$/;

/**
 * Decodes `value` as hex: only hex digits, even length, and non-empty unless `allowEmpty`.
 * Buffer.from(…, 'hex') alone would silently stop at the first bad character.
 */
export function decodeHexField(value: unknown, fieldName: string, allowEmpty = false): Buffer {
  if (typeof value !== 'string' || !HEX.test(value) || (value.length === 0 && !allowEmpty)) {
    throw new FormatError(`${fieldName} must be a valid hex string.`);
  }
  if (value.length % 2 !== 0) throw new FormatError(`${fieldName} must have an even number of hex digits.`);
  return Buffer.from(value, 'hex');
}
