/**
 * The outbound half of the network (`elements/lisk-p2p/src/peer_pool.ts` triggerNewConnections,
 * discoverFromSeedPeers, `_evictPeer`; `peer/outbound.ts`; `p2p.ts` `_startPopulator`):
 *
 * - a connection: WebSocket upgrade bound to `network.host` → `#handshake` → postNodeInfo →
 *   getNodeInfo (closed with 4104 when chain or major version differ; undecodable node info costs
 *   100) → getPeers (new addresses go to the new list) → the peer moves to the tried list;
 * - the populator round (every 10 s): free slots are filled from the book, with a slot kept for
 *   every fixed peer, which is always redialled; seeds are asked again every 30 s while slots are
 *   free, and dropped when none is;
 * - every 5 min one random non-fixed outbound peer is dropped, so that the set keeps changing.
 */
import { connectionUrl } from './connection-query.js';
import { CloseCode, CloseReason, MIN_TRIED_PEER_COUNT, PENALTY_BAN } from './constants.js';
import { decodeGetPeersAnswer, InvalidPeerListError } from './discovery.js';
import { P2pHandshakeError, P2pStateError } from './errors.js';
import type { P2pLimits, P2pTiming } from './network-options.js';
import { decodeNodeInfo, incompatibility, type NodeInfo } from './node-info.js';
import { dialSocket } from './outbound-dial.js';
import { Peer } from './peer.js';
import { type PeerAddress, peerIdOf } from './peer-address.js';
import { type PeerBook, shuffle } from './peer-book.js';
import { selectPeersForConnection } from './peer-selection.js';
import type { SentRateBudget } from './rate-limits.js';
import type { ScSocket } from './sc-socket.js';

/** lisk-p2p keeps one outbound connection per IP, except to this one. */
const LOOPBACK = '127.0.0.1';
/** getPeers may be asked once per 10 s per peer. */
const GET_PEERS_LIMIT = 1;

/** What the connector needs from the network that owns it. */
export interface ConnectorHost {
  readonly book: PeerBook;
  readonly timing: P2pTiming;
  readonly limits: P2pLimits;
  readonly sent: SentRateBudget;
  /** Our `network.host`, the local address of outbound sockets. */
  readonly localAddress: string | undefined;
  isRunning(): boolean;
  nodeInfo(): NodeInfo;
  listenPort(): number;
  /** Every peer with a socket, connected or still connecting. */
  peers(): Iterable<Peer>;
  peer(peerId: string): Peer | undefined;
  isConnected(peerId: string): boolean;
  /** Takes a new peer under the network's care (listeners, the peer map). */
  adopt(peer: Peer): void;
  pushNodeInfo(peer: Peer): void;
  /** Wraps a socket-event reaction so that it cannot throw into the socket. */
  guarded<A extends unknown[]>(reaction: (...args: A) => void): (...args: A) => void;
  ban(ipAddress: string, port: number, reason: string): void;
  connected(peer: Peer): void;
  failed(address: PeerAddress, error: Error): void;
  discovered(address: PeerAddress): void;
}

export class OutboundConnector {
  private readonly dialing = new Map<string, PeerAddress>();
  private nextSeedDiscovery = 0;

  constructor(private readonly host: ConnectorHost) {}

  /** Whether a connection to this peer ID is being opened. */
  isDialing(peerId: string): boolean {
    return this.dialing.has(peerId);
  }

  /** At start: ask the seeds when few peers are known, then the first populator round. */
  start(): void {
    if (this.host.book.triedPeers.length < MIN_TRIED_PEER_COUNT) this.discoverFromSeeds();
    this.nextSeedDiscovery = Date.now() + this.host.timing.seedDiscoveryInterval;
    this.populate();
  }

  populate(): void {
    if (!this.host.isRunning()) return;
    const free = this.freeSlots();
    if (free <= 0) this.disconnectSeedPeers();
    const idle = (entry: { peerId: string }): boolean => this.host.peer(entry.peerId) === undefined && !this.dialing.has(entry.peerId);
    const { book } = this.host;
    const picks = selectPeersForConnection(book.newPeers.filter(idle), book.triedPeers.filter(idle), free);
    for (const peer of [...picks, ...this.idleFixedPeers()]) void this.connect(peer);
    if (Date.now() >= this.nextSeedDiscovery && this.freeSlots() > 0) {
      this.discoverFromSeeds();
      this.nextSeedDiscovery = Date.now() + this.host.timing.seedDiscoveryInterval;
    }
  }

  /** Drops one random non-fixed outbound peer (4418). */
  evictOne(): void {
    const candidates = [...this.host.peers()].filter((peer) => peer.direction === 'outbound' && peer.trust !== 'fixed');
    const victim = candidates[Math.floor(Math.random() * candidates.length)];
    victim?.disconnect(CloseCode.EVICTED, `Evicted outbound peer ${victim.id}`);
  }

  private outboundCount(): number {
    return [...this.host.peers()].filter((peer) => peer.direction === 'outbound').length + this.dialing.size;
  }

  private idleFixedPeers(): PeerAddress[] {
    return this.host.book.fixedPeers.filter((peer) => {
      const id = peerIdOf(peer.ipAddress, peer.port);
      return this.host.peer(id) === undefined && !this.dialing.has(id);
    });
  }

  /** Outbound slots left, keeping one for every fixed peer we are not connected to (`getFreeOutboundSlots`). */
  private freeSlots(): number {
    return this.host.limits.maxOutbound - this.outboundCount() - this.idleFixedPeers().length;
  }

  private discoverFromSeeds(): void {
    const free = this.freeSlots();
    const { seedPeers } = this.host.book;
    if (free <= 0 || seedPeers.length === 0) return;
    for (const seed of seedPeers) {
      const peer = this.host.peer(peerIdOf(seed.ipAddress, seed.port));
      if (peer !== undefined && this.host.isConnected(peer.id)) void this.discoverFrom(peer);
    }
    for (const seed of shuffle(seedPeers.slice(0, free))) void this.connect(seed);
  }

  /** With every outbound slot in use, seed peers that are not also fixed make room (`_disconnectFromSeedPeers`). */
  private disconnectSeedPeers(): void {
    for (const peer of this.host.peers()) {
      if (peer.direction !== 'outbound' || peer.trust === 'fixed' || !this.host.isConnected(peer.id)) continue;
      if (this.host.book.trustOf(peer.ipAddress, peer.port) === 'seed') peer.disconnect(CloseCode.INTENTIONAL, CloseReason.SEED_DISCONNECT);
    }
  }

  private mayDial(address: PeerAddress, peerId: string): boolean {
    const { host } = this;
    if (!host.isRunning() || host.peer(peerId) !== undefined || this.dialing.has(peerId) || host.book.isBanned(address.ipAddress))
      return false;
    if (address.ipAddress === LOOPBACK) return true;
    const outboundIps = [...[...host.peers()].filter((peer) => peer.direction === 'outbound'), ...this.dialing.values()].map(
      (peer) => peer.ipAddress,
    );
    return !outboundIps.includes(address.ipAddress);
  }

  private async connect(address: PeerAddress): Promise<void> {
    const { host } = this;
    const peerId = peerIdOf(address.ipAddress, address.port);
    if (!this.mayDial(address, peerId)) return;
    this.dialing.set(peerId, address);
    let socket: ScSocket;
    try {
      const claims = { ...host.nodeInfo(), port: host.listenPort() };
      socket = await dialSocket(connectionUrl(address.ipAddress, address.port, claims), {
        localAddress: host.localAddress,
        connectTimeout: host.timing.connectTimeout,
        maxPayload: host.limits.wsMaxPayload,
      });
    } catch (error) {
      this.dialing.delete(peerId);
      host.failed(address, error as Error);
      return;
    }
    this.dialing.delete(peerId);
    if (!host.isRunning() || host.peer(peerId) !== undefined) {
      socket.disconnect(CloseCode.INTENTIONAL);
      return;
    }
    // A WebSocket control frame from the server: lisk-p2p charges 100, i.e. a ban.
    socket.on(
      'violation',
      host.guarded((reason) => host.ban(address.ipAddress, address.port, reason)),
    );
    const peer = new Peer(socket, {
      direction: 'outbound',
      ipAddress: address.ipAddress,
      port: address.port,
      ackTimeout: host.timing.outboundAckTimeout,
      sharedState: { chainID: undefined, networkVersion: undefined, nonce: undefined, advertiseAddress: true, options: undefined },
    });
    peer.trust = host.book.trustOf(peer.ipAddress, peer.port, false);
    host.adopt(peer);
    try {
      await socket.handshake(host.timing.outboundAckTimeout);
      host.pushNodeInfo(peer);
      await this.fetchNodeInfo(peer);
    } catch (error) {
      const code = error instanceof P2pHandshakeError ? error.closeCode : CloseCode.INTENTIONAL;
      if (!socket.isClosed) peer.disconnect(code, (error as Error).message);
      host.failed(address, error as Error);
      return;
    }
    await this.discoverFrom(peer);
    if (host.peer(peerId) !== peer || socket.isClosed) {
      host.failed(address, new P2pStateError('Peer closed while connecting'));
      return;
    }
    if (!host.book.hasPeer(peerId)) host.book.addPeer(address);
    host.book.upgradePeer(address);
    host.connected(peer);
  }

  /** getNodeInfo, once per connection. */
  private async fetchNodeInfo(peer: Peer): Promise<void> {
    const { data } = await peer.request('getNodeInfo');
    let info: NodeInfo;
    try {
      info = decodeNodeInfo(data);
    } catch (error) {
      peer.applyPenalty(PENALTY_BAN, 'invalid node info');
      throw error;
    }
    const problem = incompatibility(info, this.host.nodeInfo());
    if (problem !== undefined) throw new P2pHandshakeError(CloseCode.INCOMPATIBLE_PEER, problem);
    peer.sharedState = { ...info };
  }

  /** getPeers (at most once per 10 s per peer); new addresses go to the new list with the peer as their source. */
  private async discoverFrom(peer: Peer): Promise<void> {
    if (!this.host.sent.take('getPeers', peer.id, GET_PEERS_LIMIT)) return;
    let peers: PeerAddress[];
    try {
      peers = decodeGetPeersAnswer((await peer.request('getPeers')).data);
    } catch (error) {
      if (error instanceof InvalidPeerListError) peer.applyPenalty(PENALTY_BAN, error.message);
      return;
    }
    for (const found of peers) {
      if (this.host.book.hasPeer(peerIdOf(found.ipAddress, found.port))) continue;
      if (this.host.book.addPeer({ ...found, sourceAddress: peer.ipAddress }))
        this.host.discovered({ ipAddress: found.ipAddress, port: found.port });
    }
  }
}
