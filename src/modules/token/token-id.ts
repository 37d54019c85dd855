/**
 * Token IDs (LIP 0051 "Token Identification"): 4 bytes of the chain ID that minted the token,
 * then a 4-byte local ID. The LSK token of a network is `networkByte ‖ 00 00 00 ‖ 00 00 00 00`,
 * minted by that network's mainchain `networkByte ‖ 00 00 00`.
 */
import { CHAIN_ID_LENGTH, TOKEN_ID_LENGTH } from './constants.js';
import { InvariantError } from '../../errors.js';

/** The chain ID part of a token ID; throws for a token ID of the wrong length (lisk-sdk splitTokenID). */
export function tokenChainID(tokenID: Buffer): Buffer {
  if (tokenID.length !== TOKEN_ID_LENGTH) {
    throw new InvariantError(`Token ID must have length ${TOKEN_ID_LENGTH}`);
  }
  return tokenID.subarray(0, CHAIN_ID_LENGTH);
}

/** The mainchain ID of the network a chain ID belongs to (lisk-sdk getMainchainID). */
export function mainchainIDOf(chainID: Buffer): Buffer {
  const mainchainID = Buffer.alloc(CHAIN_ID_LENGTH);
  mainchainID[0] = chainID[0] ?? 0;
  return mainchainID;
}

/** The LSK token ID of the network a chain ID belongs to (lisk-sdk getTokenIDLSK). */
export function lskTokenIDOf(chainID: Buffer): Buffer {
  const tokenID = Buffer.alloc(TOKEN_ID_LENGTH);
  tokenID[0] = chainID[0] ?? 0;
  return tokenID;
}

/**
 * True for tokens every chain supports implicitly: the chain's own tokens and the LSK token of
 * its network (lisk-sdk SupportedTokensStore._isMainchainOrNative).
 */
export function isMainchainOrNativeToken(tokenID: Buffer, ownChainID: Buffer): boolean {
  const chainID = tokenChainID(tokenID);
  if (chainID.equals(ownChainID)) return true;
  return chainID[0] === ownChainID[0] && chainID.equals(mainchainIDOf(chainID)) && tokenID.equals(lskTokenIDOf(chainID));
}
