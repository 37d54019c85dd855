/** Cryptographically secure random bytes (node:crypto, i.e. the OS CSPRNG). */
import { randomBytes as nodeRandomBytes } from 'node:crypto';

/** `length` fresh random bytes; used for salts, IVs and hash-onion seeds. */
export function randomBytes(length: number): Buffer {
  return nodeRandomBytes(length);
}
