/**
 * The peer book (LIP 0004; `elements/lisk-p2p/src/peer_book/peer_book.ts`): addresses we heard
 * of (new list) and addresses we connected to (tried list), the configured seed, fixed and
 * whitelisted peers, and the banned IPs.
 *
 * - At start, fixed, whitelisted and previously tried peers go straight to the tried list.
 * - A getPeers answer adds its entries to the new list; a successful outbound connection moves
 *   the peer to the tried list.
 * - A failed dial removes a new entry; a tried entry is removed after 3 failures and goes back
 *   to the new list. Configured (trusted) peers are never removed for failing.
 * - A ban lasts 24 h and covers the IP: every entry of that IP is dropped. Fixed and whitelisted
 *   peers are never banned; blacklisted IPs are banned for good.
 */
import { BAN_TIME, MAX_RECONNECT_TRIES, NEW_BUCKET_COUNT, NEW_BUCKET_SIZE, TRIED_BUCKET_COUNT, TRIED_BUCKET_SIZE } from './constants.js';
import { type PeerAddress, peerIdOf } from './peer-address.js';
import { type BookEntry, BucketList } from './peer-buckets.js';
import type { PeerLists } from './peer-lists.js';

/** How a peer was configured; fixed and whitelisted peers are never banned, trusted ones escape engine penalties. */
export type PeerTrust = 'fixed' | 'whitelisted' | 'seed' | 'none';

export interface BookPeer extends PeerAddress {
  sourceAddress?: string;
  advertiseAddress?: boolean;
}

export class PeerBook {
  private readonly newList: BucketList;
  private readonly triedList: BucketList;
  private readonly bannedUntil = new Map<string, number>();
  private readonly blacklistedIPs: Set<string>;
  readonly seedPeers: readonly PeerAddress[];
  readonly fixedPeers: readonly PeerAddress[];
  readonly whitelistedPeers: readonly PeerAddress[];

  /** `lists` must already be sanitised (peer-lists.ts); `secret` keys the bucket hashes. */
  constructor(lists: PeerLists, secret: number) {
    this.newList = new BucketList('new', secret, NEW_BUCKET_COUNT, NEW_BUCKET_SIZE);
    this.triedList = new BucketList('tried', secret, TRIED_BUCKET_COUNT, TRIED_BUCKET_SIZE);
    this.blacklistedIPs = new Set(lists.blacklistedIPs);
    this.seedPeers = lists.seedPeers;
    this.fixedPeers = lists.fixedPeers;
    this.whitelistedPeers = lists.whitelistedPeers;
    for (const peer of [...lists.fixedPeers, ...lists.whitelistedPeers, ...lists.previousPeers]) {
      this.addPeer(peer);
      this.upgradePeer(peer);
    }
  }

  get newPeers(): BookEntry[] {
    return this.newList.entries();
  }

  get triedPeers(): BookEntry[] {
    return this.triedList.entries();
  }

  get allPeers(): BookEntry[] {
    return [...this.newList.entries(), ...this.triedList.entries()];
  }

  hasPeer(peerId: string): boolean {
    return this.triedList.has(peerId) || this.newList.has(peerId);
  }

  getPeer(peerId: string): BookEntry | undefined {
    return this.triedList.get(peerId) ?? this.newList.get(peerId);
  }

  /** Adds a peer to the new list unless known or banned; true when added. */
  addPeer(peer: BookPeer, now = Date.now()): boolean {
    if (this.isBanned(peer.ipAddress, now)) return false;
    const peerId = peerIdOf(peer.ipAddress, peer.port);
    if (this.hasPeer(peerId)) return false;
    const entry: BookEntry = {
      peerId,
      ipAddress: peer.ipAddress,
      port: peer.port,
      advertiseAddress: peer.advertiseAddress ?? true,
      dateAdded: now,
      failures: 0,
    };
    if (peer.sourceAddress !== undefined) entry.sourceAddress = peer.sourceAddress;
    this.newList.add(entry, now);
    return true;
  }

  removePeer(peerId: string): void {
    this.newList.remove(peerId);
    this.triedList.remove(peerId);
  }

  /** Moves a peer from the new list to the tried list (after a successful connection). */
  upgradePeer(peer: PeerAddress, now = Date.now()): boolean {
    const peerId = peerIdOf(peer.ipAddress, peer.port);
    if (this.triedList.has(peerId)) return true;
    const entry = this.newList.remove(peerId);
    if (entry === undefined || this.isBanned(peer.ipAddress, now)) return false;
    this.triedList.add({ ...entry, failures: 0 }, now);
    return true;
  }

  /** A dial failed: drop a new entry; count a tried entry's failures and demote it after the third. */
  downgradePeer(peer: PeerAddress): void {
    const peerId = peerIdOf(peer.ipAddress, peer.port);
    if (this.trustOf(peer.ipAddress, peer.port) !== 'none') return;
    if (this.newList.remove(peerId) !== undefined) return;
    const tried = this.triedList.get(peerId);
    if (tried === undefined) return;
    tried.failures += 1;
    if (tried.failures >= MAX_RECONNECT_TRIES) {
      this.triedList.remove(peerId);
      this.addPeer(peer);
    }
  }

  /**
   * How a peer was configured. lisk-p2p marks a peer by IP (`_assignPeerKind`) but exempts it from
   * engine penalties by exact ID (`isTrustedPeer`); `exact` selects the second reading.
   */
  trustOf(ipAddress: string, port: number, exact = true): PeerTrust {
    const match = (list: readonly PeerAddress[]): boolean => list.some((p) => p.ipAddress === ipAddress && (!exact || p.port === port));
    if (match(this.fixedPeers)) return 'fixed';
    if (match(this.whitelistedPeers)) return 'whitelisted';
    if (match(this.seedPeers)) return 'seed';
    return 'none';
  }

  isBanned(ipAddress: string, now = Date.now()): boolean {
    if (this.blacklistedIPs.has(ipAddress)) return true;
    const until = this.bannedUntil.get(ipAddress);
    if (until === undefined) return false;
    if (until > now) return true;
    this.bannedUntil.delete(ipAddress);
    return false;
  }

  /** Bans an IP for `duration` ms and forgets its entries; fixed and whitelisted peers are exempt. Returns true when banned. */
  ban(peer: PeerAddress, duration = BAN_TIME, now = Date.now()): boolean {
    const trust = this.trustOf(peer.ipAddress, peer.port);
    if (trust === 'fixed' || trust === 'whitelisted') return false;
    if (this.isBanned(peer.ipAddress, now)) return true;
    this.bannedUntil.set(peer.ipAddress, now + duration);
    for (const entry of this.allPeers) {
      if (entry.ipAddress === peer.ipAddress) this.removePeer(entry.peerId);
    }
    return true;
  }

  /** IPs banned right now (blacklisted ones included). */
  bannedIPs(now = Date.now()): string[] {
    return [...new Set([...this.blacklistedIPs, ...[...this.bannedUntil.keys()].filter((ip) => this.isBanned(ip, now))])];
  }

  /**
   * The sample a getPeers answer is drawn from (`getRandomizedPeerList`): between a quarter and
   * a half of the book, at least min(100, size), at most 200, in random order.
   */
  randomSample(minimum: number, maximum: number): BookEntry[] {
    const all = shuffle(this.allPeers);
    const low = Math.ceil(Math.min(maximum, all.length * 0.25));
    const high = Math.floor(Math.min(maximum, all.length * 0.5));
    const count = Math.max(low + Math.floor(Math.random() * (high - low + 1)), Math.min(minimum, all.length));
    return all.slice(0, count);
  }
}

/** Fisher-Yates, on a copy. */
export function shuffle<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
