/**
 * Key derivation paths such as m/44'/134'/0' (Ed25519, LIP 0066) and m/12381/134/4/0
 * (BLS, EIP-2333). An apostrophe marks a hardened index and adds 2³¹, as in the SDK's
 * parseKeyDerivationPath.
 *
 * This parser is stricter than the SDK's, which also accepted oddities such as "mx/1" or a
 * segment "4'4" (read as 4 + 2³¹): here a path is exactly "m" followed by one or more
 * "/<decimal>" segments, each optionally ending in a single apostrophe.
 */
import { FormatError } from '../errors.js';

export const HARDENED_OFFSET = 0x80000000;
const MAX_UINT32 = 0xffffffff;
const SEGMENT = /^(0|[1-9][0-9]*)(')?$/;

/** The numeric indexes of a derivation path; throws FormatError for a malformed path. */
export function parseDerivationPath(path: string): number[] {
  const segments = path.split('/');
  if (segments[0] !== 'm' || segments.length < 2) {
    throw new FormatError(`Invalid key derivation path "${path}": must look like m/44'/134'/0'.`);
  }
  return segments.slice(1).map((segment) => {
    const match = SEGMENT.exec(segment);
    if (match === null) {
      throw new FormatError(`Invalid key derivation path "${path}": bad segment "${segment}".`);
    }
    const value = Number(match[1]);
    const hardened = match[2] !== undefined;
    if (hardened ? value >= HARDENED_OFFSET : value > MAX_UINT32) {
      throw new FormatError(`Invalid key derivation path "${path}": index ${segment} out of range.`);
    }
    return hardened ? value + HARDENED_OFFSET : value;
  });
}
