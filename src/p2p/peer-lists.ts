/**
 * The configured peer lists (`network.seedPeers`, `fixedPeers`, `whitelistedPeers`,
 * `blacklistedIPs`, plus the tried peers saved by a previous run) and how lisk-sdk cleans them up
 * before use (`elements/lisk-p2p/src/utils/sanitize.ts` sanitizePeerLists): IPv4 only, never our
 * own `network.host` (0.0.0.0 when unset), never a blacklisted IP, and each address in one list
 * only, in the order fixed > seed > whitelisted > previous. Seed peers may be DNS names, resolved
 * once at start as `framework/src/engine/network/utils.ts` lookupPeersIPs does.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIPv4, type PeerAddress, peerIdOf } from './peer-address.js';

/** A peer as written in the config: `{ip, port}`. */
export interface ConfigPeer {
  ip: string;
  port: number;
}

export interface PeerLists {
  seedPeers: PeerAddress[];
  fixedPeers: PeerAddress[];
  whitelistedPeers: PeerAddress[];
  previousPeers: PeerAddress[];
  blacklistedIPs: string[];
}

export const toPeerAddress = (peer: ConfigPeer): PeerAddress => ({ ipAddress: peer.ip, port: peer.port });

const DEFAULT_HOST = '0.0.0.0';

/** Applies lisk-p2p's filters; `hostIp` is `network.host` (undefined: 0.0.0.0). */
export function sanitizePeerLists(lists: PeerLists, hostIp: string | undefined): PeerLists {
  const ownIp = hostIp ?? DEFAULT_HOST;
  const blacklistedIPs = lists.blacklistedIPs.filter((ip) => ip !== ownIp);
  const taken = new Set<string>();
  const keep = (peers: PeerAddress[]): PeerAddress[] => {
    const kept = peers.filter(
      (peer) =>
        isIPv4(peer.ipAddress) &&
        peer.ipAddress !== ownIp &&
        !blacklistedIPs.includes(peer.ipAddress) &&
        !taken.has(peerIdOf(peer.ipAddress, peer.port)),
    );
    for (const peer of kept) taken.add(peerIdOf(peer.ipAddress, peer.port));
    return kept;
  };
  const fixedPeers = keep(lists.fixedPeers);
  const seedPeers = keep(lists.seedPeers);
  const whitelistedPeers = keep(lists.whitelistedPeers);
  const previousPeers = keep(lists.previousPeers);
  return { seedPeers, fixedPeers, whitelistedPeers, previousPeers, blacklistedIPs };
}

export type HostLookup = (hostname: string) => Promise<string>;

const lookupIPv4: HostLookup = async (hostname) => (await dnsLookup(hostname, { family: 4 })).address;

/**
 * Resolves seed peers given by host name to one IPv4 address each. A name that does not resolve
 * stays as written and is then dropped by sanitizePeerLists, as in lisk-sdk (which only logs it).
 */
export async function resolveSeedPeers(
  seeds: readonly ConfigPeer[],
  lookup: HostLookup = lookupIPv4,
): Promise<{ peers: ConfigPeer[]; unresolved: string[] }> {
  const unresolved: string[] = [];
  const peers = await Promise.all(
    seeds.map(async (peer) => {
      if (isIPv4(peer.ip)) return peer;
      try {
        return { ip: await lookup(peer.ip), port: peer.port };
      } catch {
        unresolved.push(peer.ip);
        return peer;
      }
    }),
  );
  return { peers, unresolved };
}
