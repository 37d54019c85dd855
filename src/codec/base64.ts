/**
 * Strict base64 for bytes properties with `format: 'base64'`. Only the
 * canonical padded standard alphabet is accepted, so every accepted string maps to exactly one
 * byte string and back.
 */
import { bufferView } from './buffer-view.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard padded base64 of `bytes`. */
export function bytesToBase64(bytes: Uint8Array): string {
  return bufferView(bytes).toString('base64');
}

/** True when `value` is canonical padded standard base64. */
export function isBase64(value: unknown): value is string {
  if (typeof value !== 'string' || !BASE64.test(value)) return false;
  // Reject non-zero unused bits in the last group ("QR==" is not canonical for one byte).
  return Buffer.from(value, 'base64').toString('base64') === value;
}

/** Decodes canonical base64, or returns undefined when `value` is not canonical base64. */
export function base64ToBytesOrUndefined(value: unknown): Buffer | undefined {
  return isBase64(value) ? Buffer.from(value, 'base64') : undefined;
}
