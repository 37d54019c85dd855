/**
 * A Buffer over the same memory as `bytes` (no copy), so Buffer's fast string codecs can be
 * used on plain Uint8Arrays handed in by callers.
 */
export function bufferView(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
