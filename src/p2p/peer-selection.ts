/**
 * Which peers a message, a request or a new connection goes to
 * (`elements/lisk-p2p/src/utils/select.ts`, `peer_pool.ts` `_selectPeersForEviction`).
 */
import { PROTECTION_LATENCY, PROTECTION_LONGEVITY, PROTECTION_NETGROUP, PROTECTION_RESPONSE_RATE, SEND_PEER_LIMIT } from './constants.js';
import type { Peer } from './peer.js';
import type { BookEntry } from './peer-buckets.js';
import { shuffle } from './peer-book.js';

/**
 * `send` (postBlock, postSingleCommitMessages): at most `limit` peers, about half outbound and
 * half inbound (the scarcer kind fills its half first), plus every fixed peer.
 */
export function selectPeersForSend(peers: readonly Peer[], limit = SEND_PEER_LIMIT): Peer[] {
  const shuffled = shuffle(peers);
  const outbound = shuffled.filter((peer) => peer.direction === 'outbound');
  const inbound = shuffled.filter((peer) => peer.direction === 'inbound');
  const [shorter, longer] = outbound.length < inbound.length ? [outbound, inbound] : [inbound, outbound];
  const first = shorter.slice(0, Math.round(limit / 2));
  const chosen = [...first, ...longer.slice(0, limit - first.length), ...shuffled.filter((peer) => peer.trust === 'fixed')];
  return [...new Set(chosen)];
}

/** A request without a chosen peer: a random outbound peer, or any peer when none is outbound. */
export function selectPeerForRequest(peers: readonly Peer[]): Peer | undefined {
  const outbound = peers.filter((peer) => peer.direction === 'outbound');
  const candidates = outbound.length > 0 ? outbound : peers;
  return candidates[Math.floor(Math.random() * candidates.length)];
}

/** Keeps one entry per IP (the first one seen). */
function onePerIp(entries: readonly BookEntry[]): BookEntry[] {
  const byIp = new Map<string, BookEntry>();
  for (const entry of entries) if (!byIp.has(entry.ipAddress)) byIp.set(entry.ipAddress, entry);
  return [...byIp.values()];
}

/**
 * New outbound connections (LIP 0004): all candidates when they fit in `limit`; otherwise each pick
 * takes a tried peer with probability max(½, tried/(tried+new)) (½ while fewer than 100 are
 * tried), else a new one. One peer per IP.
 */
export function selectPeersForConnection(newPeers: readonly BookEntry[], triedPeers: readonly BookEntry[], limit: number): BookEntry[] {
  if (limit <= 0 || newPeers.length + triedPeers.length === 0) return [];
  if (limit >= newPeers.length + triedPeers.length) return onePerIp([...newPeers, ...triedPeers]);
  const triedShare = triedPeers.length < 100 ? 0.5 : Math.max(0.5, triedPeers.length / (triedPeers.length + newPeers.length));
  const tried = shuffle(triedPeers);
  const fresh = shuffle(newPeers);
  const picks: BookEntry[] = [];
  for (let i = 0; i < limit; i += 1) {
    const pick = tried.length > 0 && Math.random() < triedShare ? tried.pop() : (fresh.pop() ?? tried.pop());
    if (pick !== undefined) picks.push(pick);
  }
  return onePerIp(picks);
}

function protectedShare(peers: readonly Peer[], share: number, score: (peer: Peer) => number, highest: boolean): Peer[] {
  const sorted = [...peers].sort((a, b) => (highest ? score(b) - score(a) : score(a) - score(b)));
  return sorted.slice(0, Math.ceil(peers.length * share));
}

/**
 * The inbound peer to drop when inbound slots are full: never fixed or whitelisted; protect the
 * best by netgroup, latency and response rate, then the longer-connected half of the rest, and
 * pick a random one of what remains.
 */
export function selectInboundPeerToEvict(peers: readonly Peer[], netgroupOf: (peer: Peer) => number): Peer | undefined {
  const candidates = peers.filter((peer) => peer.direction === 'inbound' && peer.trust !== 'fixed' && peer.trust !== 'whitelisted');
  const protectedPeers = new Set([
    ...protectedShare(candidates, PROTECTION_NETGROUP, netgroupOf, true),
    ...protectedShare(candidates, PROTECTION_LATENCY, (peer) => peer.latency, false),
    ...protectedShare(candidates, PROTECTION_RESPONSE_RATE, (peer) => peer.productivity.responseRate, true),
  ]);
  const rest = candidates.filter((peer) => !protectedPeers.has(peer));
  const longest = new Set(protectedShare(rest, PROTECTION_LONGEVITY, (peer) => peer.connectTime, false));
  const evictable = rest.filter((peer) => !longest.has(peer));
  return evictable[Math.floor(Math.random() * evictable.length)];
}
