/**
 * Reading and changing the supportedTokens substore (LIP 0051 "Supported Tokens"; lisk-sdk
 * SupportedTokensStore). A chain always supports its own tokens and its network's LSK token;
 * other tokens need an entry: the empty key (all tokens of all chains), a chain ID with an empty
 * list (all tokens of that chain) or a chain ID with a sorted list of token IDs.
 */
import type { StateReader, StateWriter } from '../../state/state-view.js';
import { ALL_SUPPORTED_TOKENS_KEY, supportedTokensStore, TOKEN_ID_RANGE, type SupportedTokensEntry } from './stores.js';
import { isMainchainOrNativeToken, tokenChainID } from './token-id.js';

/** Whether the "all tokens supported" entry exists. */
export function allTokensSupported(state: StateReader): boolean {
  return supportedTokensStore.has(state, ALL_SUPPORTED_TOKENS_KEY);
}

/** Whether `tokenID` is supported on the chain `ownChainID` (lisk-sdk SupportedTokensStore.isSupported). */
export function isTokenSupported(state: StateReader, tokenID: Buffer, ownChainID: Buffer): boolean {
  if (isMainchainOrNativeToken(tokenID, ownChainID)) return true;
  if (allTokensSupported(state)) return true;
  const entry = supportedTokensStore.get(state, tokenChainID(tokenID));
  if (entry === undefined) return false;
  return entry.supportedTokenIDs.length === 0 || entry.supportedTokenIDs.some((id) => id.equals(tokenID));
}

/**
 * The per-chain entries, in key order. Like lisk-sdk's getAll this scans keys from 8 zero bytes
 * to 8 0xff bytes, so the "all supported" entry (empty key) is never part of it.
 */
export function chainSupportEntries(state: StateReader): { key: Buffer; value: SupportedTokensEntry }[] {
  return supportedTokensStore.iterate(state, TOKEN_ID_RANGE);
}

/** Deletes every per-chain entry; the "all supported" entry stays (lisk-sdk removeAll). */
export function removeAllChainSupport(state: StateWriter): void {
  for (const { key } of chainSupportEntries(state)) supportedTokensStore.del(state, key);
}

/** Replaces every per-chain entry with the "all supported" entry (lisk-sdk supportAll). */
export function supportAllTokensInStore(state: StateWriter): void {
  removeAllChainSupport(state);
  supportedTokensStore.set(state, ALL_SUPPORTED_TOKENS_KEY, { supportedTokenIDs: [] });
}

/**
 * Adds `tokenID` to its chain's list, kept sorted; nothing changes when the token is implicitly
 * supported, all tokens are supported, or all tokens of its chain are (lisk-sdk supportToken).
 */
export function supportTokenInStore(state: StateWriter, tokenID: Buffer, ownChainID: Buffer): void {
  if (isMainchainOrNativeToken(tokenID, ownChainID)) return;
  if (allTokensSupported(state)) return;
  const chainID = tokenChainID(tokenID);
  const existing = supportedTokensStore.get(state, chainID);
  if (existing !== undefined && existing.supportedTokenIDs.length === 0) return;
  const entry = existing ?? { supportedTokenIDs: [] };
  if (entry.supportedTokenIDs.some((id) => id.equals(tokenID))) return;
  entry.supportedTokenIDs.push(tokenID);
  entry.supportedTokenIDs.sort((a, b) => a.compare(b));
  supportedTokensStore.set(state, chainID, entry);
}
