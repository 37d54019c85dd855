/**
 * Tagged messages and their digests (LIP 0037 / LIP 0062): every protocol
 * signature, Ed25519 or BLS, is over H(ascii(tag) ‖ chainID ‖ message).
 */
import { createHash } from 'node:crypto';

/** utf8(tag) ‖ chainID ‖ message, as one buffer (tags are ASCII; UTF-8 matches the SDK for any string). */
export function tagMessage(tag: string, chainID: Uint8Array, message: Uint8Array): Buffer {
  const tagLength = Buffer.byteLength(tag, 'utf8');
  const out = Buffer.allocUnsafe(tagLength + chainID.length + message.length);
  out.write(tag, 0, 'utf8');
  out.set(chainID, tagLength);
  out.set(message, tagLength + chainID.length);
  return out;
}

/** sha256(tagMessage(tag, chainID, message)), computed without materialising the concatenation. */
export function taggedDigest(tag: string, chainID: Uint8Array, message: Uint8Array): Buffer {
  return createHash('sha256').update(tag, 'utf8').update(chainID).update(message).digest();
}
