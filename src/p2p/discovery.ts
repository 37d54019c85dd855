/**
 * getPeers, both ways (`elements/lisk-p2p/src/p2p.ts` `_handleGetPeersRequest`, `peer/base.ts`
 * fetchPeers, `utils/validate.ts` validatePeerInfoList).
 *
 * Answering: a random sample of the book (see PeerBook.randomSample) without the peers that asked
 * not to be advertised, each entry a lisk-codec `{ipAddress, port}`; when the list would not fit
 * in one frame it is cut to what surely fits.
 *
 * Reading an answer: more than 200 entries, or an entry that is not an IPv4 address with a valid
 * port, costs the responder 100 (`InvalidPeerInfoListError`); undecodable bytes only fail the
 * discovery.
 */
import { codec } from '../codec/index.js';
import { MAX_PEER_DISCOVERY_RESPONSE_LENGTH, MAX_PEER_INFO_SIZE, MIN_PEER_DISCOVERY_THRESHOLD } from './constants.js';
import { P2pProtocolError } from './errors.js';
import { isIPv4, isValidPort, type PeerAddress } from './peer-address.js';
import type { PeerBook } from './peer-book.js';
import { getPeersResponseSchema, peerInfoSchema } from './schemas.js';

export function encodeGetPeersAnswer(book: PeerBook, wsMaxPayload: number): Buffer {
  const sample = book
    .randomSample(MIN_PEER_DISCOVERY_THRESHOLD, MAX_PEER_DISCOVERY_RESPONSE_LENGTH)
    .filter((entry) => entry.advertiseAddress);
  let peers = sample.map((entry) => codec.encode(peerInfoSchema, { ipAddress: entry.ipAddress, port: entry.port }));
  const size = peers.reduce((sum, peer) => sum + peer.length, 0);
  if (size >= wsMaxPayload) peers = peers.slice(0, Math.floor(wsMaxPayload / MAX_PEER_INFO_SIZE) - 1);
  return codec.encode(getPeersResponseSchema, { peers });
}

/** A getPeers answer that breaks the list rules; the responder is charged 100. */
export class InvalidPeerListError extends P2pProtocolError {}

/** Decodes a getPeers answer; throws InvalidPeerListError (penalty) or P2pProtocolError (no penalty). */
export function decodeGetPeersAnswer(data: Buffer | undefined): PeerAddress[] {
  if (data === undefined) throw new InvalidPeerListError('PeerInfo list has invalid value');
  let entries: Buffer[];
  let peers: PeerAddress[];
  try {
    entries = codec.decode<{ peers: Buffer[] }>(getPeersResponseSchema, data).peers;
    peers = entries.map((entry) => codec.decode<PeerAddress>(peerInfoSchema, entry));
  } catch (error) {
    throw new P2pProtocolError(`Undecodable peer list: ${(error as Error).message}`);
  }
  if (peers.length > MAX_PEER_DISCOVERY_RESPONSE_LENGTH) throw new InvalidPeerListError('PeerInfo list is too long');
  for (const peer of peers) {
    if (!isIPv4(peer.ipAddress) || !isValidPort(peer.port)) {
      throw new InvalidPeerListError(`Invalid peer ipAddress or port for peer with ip: ${peer.ipAddress} and port ${peer.port}`);
    }
  }
  return peers;
}
