/** Byte helpers shared by the merkle room. */

/**
 * True when both byte arrays hold the same bytes. Hashes and keys are short, and for them a
 * plain loop beats Buffer.equals, whose native call costs more than the comparison itself.
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = a.length;
  if (length !== b.length) return false;
  if (length > 64) return Buffer.compare(a, b) === 0;
  for (let i = 0; i < length; i += 1) {
    if (a[i] !== b[i]) return false;
  }
  return true;
}

/**
 * A string holding exactly the bytes of `bytes` (one char per byte), for use as a Map key or for
 * fast ordering (string order equals byte order). Half the length of hex and cheaper to build;
 * never shown to people.
 */
export function latin1Key(bytes: Uint8Array): string {
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('latin1');
}
