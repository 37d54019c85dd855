/**
 * lisk32 addresses (LIP 0018) under the crypto room's names. The one
 * implementation lives in the codec, which needs it for the JSON form of `format: lisk32` bytes.
 */
import { decodeLisk32Address, encodeLisk32Address, isValidLisk32Address } from '../codec/lisk32.js';

export { LISK32_PREFIX } from '../codec/lisk32.js';
export const LISK32_ALPHABET = 'zxvcpmbn3465o978uyrtkqew2adsjhfg';
export const LISK32_ADDRESS_LENGTH = 41;
export const BINARY_ADDRESS_LENGTH = 20;

/** Encodes a 20-byte address as lisk32 (SDK `getLisk32AddressFromAddress`); FormatError otherwise. */
export function encodeLisk32(address: Uint8Array): string {
  return encodeLisk32Address(address);
}

/** Decodes a lisk32 address; FormatError names the failed rule (length, prefix, character, checksum). */
export function decodeLisk32(text: string): Buffer {
  return decodeLisk32Address(text);
}

/** True when `text` is a valid lisk32 address (never throws). */
export function isValidLisk32(text: string): boolean {
  return isValidLisk32Address(text);
}

/** Throws FormatError with the reason when `text` is not a valid lisk32 address. */
export function validateLisk32(text: string): void {
  decodeLisk32Address(text);
}
