/**
 * The connection URL of an outbound P2P socket and its query string, which carries the
 * connecting node's identity (`elements/lisk-p2p/src/peer/outbound.ts` `_createOutboundSocket`):
 *
 *   ws://<ip>:<port>/rpc/?networkVersion=1.0&chainID=04000002&nonce=<16 hex>&advertiseAddress=true&port=<own port>
 *
 * The node-info options (height, ...) are not in the query; they follow with postNodeInfo.
 */
import { P2P_PATH } from './constants.js';

export interface ConnectionClaims {
  networkVersion: string;
  chainID: Uint8Array;
  nonce: string;
  advertiseAddress: boolean;
  /** The connecting node's own listening port; the server builds the peer ID from it. */
  port: number;
}

/** Keys in the order lisk-p2p writes them (a Lisk server reads them by name). */
export function connectionUrl(ipAddress: string, port: number, claims: ConnectionClaims): string {
  const query = new URLSearchParams({
    networkVersion: claims.networkVersion,
    chainID: Buffer.from(claims.chainID).toString('hex'),
    nonce: claims.nonce,
    advertiseAddress: String(claims.advertiseAddress),
    port: String(claims.port),
  });
  return `ws://${ipAddress}:${port}${P2P_PATH}?${query.toString()}`;
}

/** The query as a Lisk server sees it: a repeated key reads as a list (never as a string). */
export type ConnectionQuery = Record<string, string | string[]>;

export function parseConnectionQuery(requestUrl: string): ConnectionQuery {
  const queryStart = requestUrl.indexOf('?');
  const query: ConnectionQuery = {};
  if (queryStart < 0) return query;
  for (const [key, value] of new URLSearchParams(requestUrl.slice(queryStart + 1))) {
    const existing = query[key];
    query[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return query;
}
