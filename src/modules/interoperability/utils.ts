/** Helpers shared by the interoperability module's commands, methods and genesis (lisk-sdk interoperability/utils.ts). */
import { CHAIN_ID_LENGTH, TOKEN_ID_LENGTH, VALID_NAME_CHARS } from './constants.js';

const VALID_NAME_PATTERN = new RegExp(`^[${VALID_NAME_CHARS}]+$`);

/** LIP 0043: a chain name uses only the characters a-z0-9!@$&_. (and at least one). */
export function isValidChainName(name: string): boolean {
  return VALID_NAME_PATTERN.test(name);
}

/** lisk-sdk InvalidNameError message, kept verbatim because clients match on it. */
export function invalidNameMessage(property = 'name'): string {
  return `Invalid ${property} property. It should contain only characters from the set [${VALID_NAME_CHARS}].`;
}

/** LIP 0037: the mainchain of a network is its first chain ID byte followed by zeros. */
export function getMainchainID(chainID: Buffer): Buffer {
  const mainchainID = Buffer.alloc(CHAIN_ID_LENGTH, 0);
  mainchainID[0] = chainID[0] as number;
  return mainchainID;
}

/** LIP 0051: the LSK token ID of the network of `chainID` (mainchain ID ‖ local ID 0). */
export function getTokenIDLSK(chainID: Buffer): Buffer {
  const tokenID = Buffer.alloc(TOKEN_ID_LENGTH, 0);
  tokenID[0] = chainID[0] as number;
  return tokenID;
}

/** LIP 0045 validators hash: H(encode(validatorsHashInput)) of the active validators and threshold, as given. */
export { hashValidatorsHashInput as computeValidatorsHash } from '../../chain/validators-hash.js';

/** True when the buffers are in strictly ascending lexicographic order (so also pairwise distinct). */
export function isStrictlyAscending(buffers: readonly Buffer[]): boolean {
  for (let i = 1; i < buffers.length; i += 1) {
    if ((buffers[i - 1] as Buffer).compare(buffers[i] as Buffer) >= 0) return false;
  }
  return true;
}

/** True when no two buffers are equal. */
export function allDistinct(buffers: readonly Buffer[]): boolean {
  const seen = new Set<string>();
  for (const buffer of buffers) seen.add(buffer.toString('hex'));
  return seen.size === buffers.length;
}

/** True when the buffers are in ascending (non-strict) lexicographic order (lisk-sdk isBufferArrayOrdered). */
export function isAscending(buffers: readonly Buffer[]): boolean {
  for (let i = 1; i < buffers.length; i += 1) {
    if ((buffers[i - 1] as Buffer).compare(buffers[i] as Buffer) > 0) return false;
  }
  return true;
}
