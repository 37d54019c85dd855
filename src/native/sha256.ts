/**
 * SHA-256 (FIPS 180-4) through the native addon when it is loaded (CPU SHA extensions where the
 * CPU has them), through node:crypto otherwise. Same digests either way; the native tests
 * compare them on every input length from 0 to 1024.
 *
 * This is the one place that chooses the SHA-256 implementation: src/crypto/sha256.ts (and through
 * it the merkle room) takes its sha256 from here, so this file imports neither room.
 */
import { hash } from 'node:crypto';
import { InvalidParamsError } from '../errors.js';
import { nativeAddon } from './addon.js';
import type { NativeAddon } from './native-addon.js';

const DIGEST_LENGTH = 32;

function cryptoSha256(data: Uint8Array): Buffer {
  return hash('sha256', data, 'buffer');
}

function cryptoSha256Many(data: Uint8Array, lengths: Uint32Array): Buffer {
  let total = 0;
  for (const length of lengths) total += length;
  if (total !== data.length) throw lengthMismatch(data);
  const digests = Buffer.allocUnsafe(lengths.length * DIGEST_LENGTH);
  let start = 0;
  for (let i = 0; i < lengths.length; i += 1) {
    const end = start + (lengths[i] as number);
    digests.set(cryptoSha256(data.subarray(start, end)), i * DIGEST_LENGTH);
    start = end;
  }
  return digests;
}

/**
 * SHA-256 through the addon. The Buffer is allocated here (from Node's pool) and filled by
 * `sha256Into`: a Buffer created by native code costs about three times as much as the whole
 * call, so this is the fast way to get a fresh digest from the addon.
 */
function addonSha256(data: Uint8Array): Buffer {
  const digest = Buffer.allocUnsafe(DIGEST_LENGTH);
  (nativeAddon as NativeAddon).sha256Into(data, digest, 0);
  return digest;
}

/** SHA-256 of `data` as a new 32-byte Buffer. */
export const sha256: (data: Uint8Array) => Buffer = nativeAddon === undefined ? cryptoSha256 : addonSha256;

/**
 * Writes SHA-256 of `data` into `out` at `offset` (32 bytes), allocating nothing when the addon
 * is loaded: for loops that hash many small inputs into one buffer.
 */
export function sha256Into(data: Uint8Array, out: Uint8Array, offset = 0): void {
  if (offset < 0 || offset + DIGEST_LENGTH > out.length) {
    throw new InvalidParamsError(`sha256Into: no room for ${DIGEST_LENGTH} bytes at offset ${offset}.`);
  }
  if (nativeAddon === undefined) out.set(cryptoSha256(data), offset);
  else nativeAddon.sha256Into(data, out, offset);
}

/**
 * SHA-256 of many inputs in one call: `data` holds them back to back, input i being `lengths[i]`
 * bytes; digest i is bytes [32i, 32i + 32) of the result. For many small inputs (64-byte
 * branch nodes) this saves the cost of one call into native code per hash.
 */
export function sha256Many(data: Uint8Array, lengths: Uint32Array): Buffer {
  if (nativeAddon === undefined) return cryptoSha256Many(data, lengths);
  try {
    return nativeAddon.sha256Many(data, lengths);
  } catch (error) {
    throw error instanceof RangeError ? lengthMismatch(data) : error;
  }
}

function lengthMismatch(data: Uint8Array): InvalidParamsError {
  return new InvalidParamsError(`sha256Many: the lengths must add up to the ${data.length} bytes of data.`);
}
