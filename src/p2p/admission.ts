/**
 * The checks a Lisk server runs on an inbound socket once its socketcluster handshake arrives,
 * in lisk-p2p's order (`elements/lisk-p2p/src/peer_server/peer_server.ts`
 * `_handleIncomingConnection`): URL present, not our own nonce, query strings present, a valid
 * address and claimed port within the size cap, then chain and version compatibility. Duplicate
 * peer IDs and full inbound slots are decided by the pool afterwards.
 */
import { CloseCode, CloseReason, MAX_PEER_INFO_SIZE } from './constants.js';
import { type ConnectionQuery, parseConnectionQuery } from './connection-query.js';
import { incompatibility, type NodeInfo } from './node-info.js';
import { isIPv4, isValidPort, peerIdOf } from './peer-address.js';

/** What an admitted inbound peer claimed about itself. */
export interface InboundClaims {
  peerId: string;
  ipAddress: string;
  port: number;
  chainID: Buffer;
  networkVersion: string;
  nonce: string;
  advertiseAddress: boolean;
}

export type Admission =
  | { admitted: true; claims: InboundClaims }
  /** `selfPeerId`: set for a self-connection, whose address must leave the peer book. */
  | { admitted: false; code: number; reason: string; selfPeerId?: string };

const single = (query: ConnectionQuery, key: string): string | undefined => {
  const value = query[key];
  return typeof value === 'string' ? value : undefined;
};

/**
 * @param requestUrl the HTTP upgrade request's URL (path and query)
 * @param remoteAddress the socket's remote address, `::ffff:` already stripped
 * @param ours our node info (chain, version, nonce) and our port (for a self-connection without a port)
 */
export function admitInbound(requestUrl: string | undefined, remoteAddress: string, ours: NodeInfo, ourPort: number): Admission {
  if (!requestUrl) return { admitted: false, code: CloseCode.INVALID_URL, reason: CloseReason.INVALID_URL };
  const query = parseConnectionQuery(requestUrl);
  const claimedPort = Number.parseInt(single(query, 'port') ?? '', 10);
  if (single(query, 'nonce') === ours.nonce) {
    const selfPort = Number.isNaN(claimedPort) ? ourPort : claimedPort;
    return {
      admitted: false,
      code: CloseCode.SELF_CONNECTION,
      reason: CloseReason.SELF_CONNECTION,
      selfPeerId: peerIdOf(remoteAddress, selfPort),
    };
  }
  const networkVersion = single(query, 'networkVersion');
  const chainID = single(query, 'chainID');
  if (networkVersion === undefined || chainID === undefined) {
    return { admitted: false, code: CloseCode.INVALID_QUERY, reason: CloseReason.INVALID_QUERY };
  }
  if (!isIPv4(remoteAddress) || !isValidPort(claimedPort)) {
    const reason = `Invalid peer ipAddress or port for peer with ip: ${remoteAddress} and port ${claimedPort}`;
    return { admitted: false, code: CloseCode.INVALID_PEER_INFO, reason };
  }
  const claims: InboundClaims = {
    peerId: peerIdOf(remoteAddress, claimedPort),
    ipAddress: remoteAddress,
    port: claimedPort,
    chainID: Buffer.from(chainID, 'hex'),
    networkVersion,
    nonce: single(query, 'nonce') ?? '',
    advertiseAddress: single(query, 'advertiseAddress') !== 'false',
  };
  // lisk-p2p measures the JSON of the peer info it builds from the query; the query text bounds it.
  if (Buffer.byteLength(requestUrl) > MAX_PEER_INFO_SIZE) {
    const reason = `PeerInfo is larger than the maximum allowed size ${MAX_PEER_INFO_SIZE} bytes`;
    return { admitted: false, code: CloseCode.INVALID_PEER_INFO, reason };
  }
  const problem = incompatibility(claims, ours);
  if (problem !== undefined) return { admitted: false, code: CloseCode.INCOMPATIBLE_PEER, reason: problem };
  return { admitted: true, claims };
}
