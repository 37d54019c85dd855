/**
 * Basalt's Lisk P2P node: the server for inbound peers, outbound connections chosen from the
 * peer book, node-info gossip, penalties and bans, and the calls the node makes to its peers.
 * It follows `elements/lisk-p2p/src/p2p.ts` and `peer_pool.ts` with the engine glue of
 * `framework/src/engine/network/network.ts`; where lisk-sdk leaves room (our own send rates,
 * failed handshakes), it stays within what a Lisk peer tolerates.
 *
 * Connecting out: WebSocket upgrade (bound to `host`) → `#handshake` → postNodeInfo → getNodeInfo
 * (closed with 4104 when chain or major version differ) → getPeers (entries go to the new list) →
 * the peer moves to the tried list and counts as connected.
 * Accepting: HTTP 401 for banned IPs → `#handshake` → admission (admission.ts) → postNodeInfo →
 * handshake answer; the server side pings each peer with the "ping" procedure every 20–60 s.
 */
import { EventEmitter } from 'node:events';
import { randomBytes } from '../crypto/index.js';
import { type Logger, silentLogger } from '../logger.js';
import { admitInbound } from './admission.js';
import { connectionUrl } from './connection-query.js';
import {
  CloseCode,
  CloseReason,
  MAX_PEER_INFO_SIZE,
  MIN_TRIED_PEER_COUNT,
  NONCE_LENGTH_BYTES,
  PENALTY_BAN,
  RATE_INTERVAL,
} from './constants.js';
import { decodeGetPeersAnswer, encodeGetPeersAnswer, InvalidPeerListError } from './discovery.js';
import {
  P2pHandshakeError,
  P2pNoPeerError,
  P2pNotPermittedError,
  P2pPeerNotFoundError,
  P2pProtocolError,
  P2pRateLimitError,
  P2pStateError,
} from './errors.js';
import { type AcceptedMessage, isAcceptedMessage, isServedProcedure, type ServedProcedure } from './handlers.js';
import { InboundServer } from './inbound-server.js';
import { type DispatchContext, dispatchMessage, dispatchRequest } from './network-dispatch.js';
import { DEFAULT_TIMING, limitsOf, type P2pLimits, type P2pNetworkOptions, type P2pTiming } from './network-options.js';
import { decodeNodeInfo, emptyNodeInfoOptions, encodeNodeInfo, incompatibility, type NodeInfo, type NodeInfoOptions } from './node-info.js';
import { dialSocket } from './outbound-dial.js';
import { type IncomingMessage, Peer, type PeerDirection } from './peer.js';
import { type PeerAddress, peerIdOf } from './peer-address.js';
import { PeerBook, shuffle } from './peer-book.js';
import { netgroupOf } from './peer-buckets.js';
import { sanitizePeerLists } from './peer-lists.js';
import { selectInboundPeerToEvict, selectPeerForRequest, selectPeersForConnection, selectPeersForSend } from './peer-selection.js';
import { ENGINE_RATE_LIMITS, ReceivedRateCounter, SentRateBudget } from './rate-limits.js';
import type { ScSocket } from './sc-socket.js';
import { emptyStats, type P2pStats } from './stats.js';

/** A connected peer as the node sees it. */
export interface P2pPeerInfo {
  peerId: string;
  ipAddress: string;
  port: number;
  direction: PeerDirection;
  chainID: Buffer | undefined;
  networkVersion: string | undefined;
  nonce: string | undefined;
  advertiseAddress: boolean;
  /** Undefined until the peer sent its node info. */
  options: NodeInfoOptions | undefined;
}

export interface P2pResponse {
  data: Buffer | undefined;
  /** The peer that answered. */
  peerId: string;
}

export interface P2pNetworkEvents {
  'peer:connect': [peer: P2pPeerInfo];
  'peer:disconnect': [event: { peerId: string; direction: PeerDirection; code: number; reason: string }];
  'peer:connect-failed': [event: { peerId: string; error: Error }];
  /** A connected peer's node-info options changed. */
  'peer:update': [peer: P2pPeerInfo];
  'peer:ban': [event: { peerId: string; ipAddress: string; reason: string }];
  'peer:discovered': [peer: PeerAddress];
  /** The first outbound connection is up (lisk-sdk's EVENT_NETWORK_READY). */
  'network:ready': [];
  'request:received': [event: { procedure: string; peerId: string }];
  'message:received': [message: IncomingMessage];
}

const OUR_LOOPBACK = '127.0.0.1';
/** getPeers may be asked once per 10 s per peer. */
const GET_PEERS_LIMIT = 1;

export class P2pNetwork extends EventEmitter<P2pNetworkEvents> {
  private readonly timing: P2pTiming;
  private readonly limits: P2pLimits;
  private readonly logger: Logger;
  private readonly secret: number;
  private readonly book: PeerBook;
  private readonly peers = new Map<string, Peer>();
  private readonly connected = new Set<string>();
  private readonly dialing = new Map<string, PeerAddress>();
  private readonly received: ReceivedRateCounter;
  private readonly sent: SentRateBudget;
  private readonly dispatch: DispatchContext;
  private readonly deferredNodeInfo = new Map<string, NodeJS.Timeout>();
  private readonly latencyTimers = new Map<string, NodeJS.Timeout>();
  private readonly stats: P2pStats = emptyStats();
  private nodeInfo: NodeInfo;
  private encodedNodeInfo: Buffer;
  private server: InboundServer | undefined;
  private listenPort: number;
  private running = false;
  private hasConnected = false;
  private timers: NodeJS.Timeout[] = [];
  private nextSeedDiscovery = 0;

  constructor(private readonly options: P2pNetworkOptions) {
    super();
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.limits = limitsOf(options);
    this.logger = options.logger ?? silentLogger;
    this.secret = options.secret ?? randomBytes(4).readUInt32BE(0);
    this.listenPort = options.port;
    const lists = sanitizePeerLists(
      {
        seedPeers: options.seedPeers ?? [],
        fixedPeers: options.fixedPeers ?? [],
        whitelistedPeers: options.whitelistedPeers ?? [],
        previousPeers: options.previousPeers ?? [],
        blacklistedIPs: options.blacklistedIPs ?? [],
      },
      options.host,
    );
    this.book = new PeerBook(lists, this.secret);
    this.received = new ReceivedRateCounter(this.timing.rateWindow);
    this.sent = new SentRateBudget(this.timing.rateWindow);
    this.nodeInfo = {
      chainID: Buffer.from(options.chainID),
      networkVersion: options.networkVersion,
      nonce: randomBytes(NONCE_LENGTH_BYTES).toString('hex'),
      advertiseAddress: options.advertiseAddress ?? true,
      options: { ...emptyNodeInfoOptions(), ...options.nodeInfoOptions },
    };
    this.encodedNodeInfo = encodeNodeInfo(this.nodeInfo);
    this.dispatch = {
      handlers: options.handlers ?? {},
      logger: this.logger,
      received: this.received,
      penalize: (peerId, points) => this.penalize(peerId, points),
      encodedNodeInfo: () => this.encodedNodeInfo,
      encodedPeerList: () => encodeGetPeersAnswer(this.book, this.limits.wsMaxPayload),
    };
  }

  /** The nonce our connections carry; a server that sees it refuses the connection as a self-connection. */
  get nonce(): string {
    return this.nodeInfo.nonce;
  }

  /** The port we listen on (after start; the configured one when there is no server). */
  get port(): number {
    return this.listenPort;
  }

  get isRunning(): boolean {
    return this.running;
  }

  getNodeInfo(): NodeInfo {
    return { ...this.nodeInfo, options: { ...this.nodeInfo.options } };
  }

  async start(): Promise<void> {
    if (this.running) throw new P2pStateError('The P2P network is already running');
    if (this.limits.maxInbound !== 0) {
      this.server = new InboundServer({
        host: this.options.host,
        port: this.options.port,
        maxPayload: this.limits.wsMaxPayload,
        pingInterval: this.timing.pingInterval,
        pingTimeout: this.timing.pingTimeout,
        handshakeTimeout: this.timing.handshakeTimeout,
        isBanned: (ip) => this.book.isBanned(ip),
        onSocket: (socket, url, ip) => this.onInboundSocket(socket, url, ip),
      });
      await this.server.start();
      this.listenPort = this.server.port;
    }
    this.running = true;
    this.every(RATE_INTERVAL, () => {
      for (const peer of this.peers.values()) peer.tickSecond();
    });
    this.every(this.timing.statusInterval, () => {
      for (const peer of this.peers.values()) peer.tickStatusWindow();
    });
    this.every(this.timing.populatorInterval, () => this.populate());
    this.every(this.timing.outboundShuffleInterval, () => this.evictOutbound());
    if (this.book.triedPeers.length < MIN_TRIED_PEER_COUNT) this.discoverFromSeeds();
    this.nextSeedDiscovery = Date.now() + this.timing.seedDiscoveryInterval;
    this.populate();
  }

  async stop(): Promise<void> {
    if (!this.running) throw new P2pStateError('The P2P network is not running');
    this.running = false;
    this.hasConnected = false;
    for (const timer of [...this.timers, ...this.deferredNodeInfo.values(), ...this.latencyTimers.values()]) clearTimeout(timer);
    this.timers = [];
    this.deferredNodeInfo.clear();
    this.latencyTimers.clear();
    for (const peer of [...this.peers.values()]) peer.disconnect(CloseCode.INTENTIONAL, `Intentionally removed peer ${peer.id}`);
    await this.server?.stop();
    this.server = undefined;
  }

  /**
   * Merges new node-info options (after each executed block) and pushes the node info to every
   * connected peer. Pushes to one peer are kept within 4 per 10 s, the most a Lisk peer accepts;
   * a push that would exceed it is deferred and then carries the latest values.
   */
  applyNodeInfo(options: Partial<NodeInfoOptions>): void {
    const next: NodeInfo = { ...this.nodeInfo, options: { ...this.nodeInfo.options, ...options } };
    const encoded = encodeNodeInfo(next);
    if (encoded.length > MAX_PEER_INFO_SIZE)
      throw new P2pProtocolError(`Node info of ${encoded.length} bytes exceeds ${MAX_PEER_INFO_SIZE}`);
    this.nodeInfo = next;
    this.encodedNodeInfo = encoded;
    for (const peer of this.peers.values()) this.pushNodeInfo(peer);
  }

  /**
   * Charges a connected peer (the engine's applyPenaltyOnPeer). Configured seed, fixed and
   * whitelisted peers are exempt, as in lisk-sdk; 100 points ban the peer's IP for 24 h.
   */
  applyPenalty(peerId: string, points: number): void {
    if (!this.peers.has(peerId)) throw new P2pPeerNotFoundError(peerId);
    this.penalize(peerId, points);
  }

  /** Connected peers; like lisk-sdk, without those that asked not to be advertised unless `includeHidden`. */
  connectedPeers(options: { includeHidden?: boolean } = {}): P2pPeerInfo[] {
    return [...this.connected]
      .map((peerId) => this.peers.get(peerId))
      .filter((peer): peer is Peer => peer !== undefined && (options.includeHidden === true || peer.sharedState.advertiseAddress))
      .map((peer) => peerInfoOf(peer));
  }

  /** Peers of the book we are not connected to (advertised ones only). */
  disconnectedPeers(): PeerAddress[] {
    return this.book.allPeers
      .filter((entry) => entry.advertiseAddress && !this.connected.has(entry.peerId))
      .map((entry) => ({ ipAddress: entry.ipAddress, port: entry.port }));
  }

  /** The tried list, for the node to save and pass back as `previousPeers` next time. */
  triedPeers(): PeerAddress[] {
    return this.book.triedPeers.map((entry) => ({ ipAddress: entry.ipAddress, port: entry.port }));
  }

  bannedIPs(): string[] {
    return this.book.bannedIPs();
  }

  getStats(): P2pStats {
    const peers = [...this.connected].map((id) => this.peers.get(id));
    this.stats.outgoing.count = peers.filter((peer) => peer?.direction === 'outbound').length;
    this.stats.incoming.count = peers.filter((peer) => peer?.direction === 'inbound').length;
    this.stats.totalConnectedPeers = this.connectedPeers().length;
    this.stats.totalDisconnectedPeers = this.disconnectedPeers().length;
    return structuredClone(this.stats);
  }

  /**
   * Sends a request to `options.peerId`, or else to a random connected peer (outbound ones
   * preferred). Only the procedures a Lisk node serves may be asked, and never more often per
   * peer than its rate limits allow (P2pRateLimitError instead of a penalty from the peer).
   */
  async request(procedure: ServedProcedure, data?: Uint8Array, options: { peerId?: string } = {}): Promise<P2pResponse> {
    if (!isServedProcedure(procedure)) throw new P2pNotPermittedError(procedure);
    const peer = options.peerId === undefined ? selectPeerForRequest(this.connectedPeerObjects()) : this.connectedPeer(options.peerId);
    if (peer === undefined) throw new P2pNoPeerError();
    const limit = ENGINE_RATE_LIMITS[procedure];
    if (limit !== undefined && !this.sent.take(procedure, peer.id, limit)) throw new P2pRateLimitError(procedure, peer.id);
    const answer = await peer.request(procedure, data);
    return { data: answer.data, peerId: peer.id };
  }

  requestFromPeer(peerId: string, procedure: ServedProcedure, data?: Uint8Array): Promise<P2pResponse> {
    return this.request(procedure, data, { peerId });
  }

  /** postBlock / postSingleCommitMessages: to at most 16 peers, half outbound and half inbound, plus every fixed peer. */
  send(event: AcceptedMessage, data?: Uint8Array): void {
    assertAccepted(event);
    for (const peer of selectPeersForSend(this.connectedPeerObjects())) this.trySend(peer, event, data);
  }

  /** postTransactionsAnnouncement: to every connected peer. */
  broadcast(event: AcceptedMessage, data?: Uint8Array): void {
    assertAccepted(event);
    for (const peer of this.connectedPeerObjects()) this.trySend(peer, event, data);
  }

  sendToPeer(peerId: string, event: AcceptedMessage, data?: Uint8Array): void {
    assertAccepted(event);
    const peer = this.connectedPeer(peerId);
    if (peer === undefined) throw new P2pPeerNotFoundError(peerId);
    if (!this.trySend(peer, event, data)) throw new P2pRateLimitError(event, peerId);
  }

  // ---------------------------------------------------------------------------------------------
  // peers

  private every(interval: number, task: () => void): void {
    const timer = setInterval(task, interval);
    timer.unref();
    this.timers.push(timer);
  }

  private connectedPeerObjects(): Peer[] {
    return [...this.connected].map((id) => this.peers.get(id)).filter((peer): peer is Peer => peer?.isOpen === true);
  }

  private connectedPeer(peerId: string): Peer | undefined {
    const peer = this.connected.has(peerId) ? this.peers.get(peerId) : undefined;
    if (peer === undefined) throw new P2pPeerNotFoundError(peerId);
    return peer;
  }

  private trySend(peer: Peer, event: AcceptedMessage, data: Uint8Array | undefined): boolean {
    const limit = ENGINE_RATE_LIMITS[event];
    if (limit !== undefined && !this.sent.take(event, peer.id, limit)) return false;
    try {
      peer.send(event, data);
      return true;
    } catch {
      this.stats.totalErrors += 1;
      return false;
    }
  }

  private penalize(peerId: string, points: number): void {
    const peer = this.peers.get(peerId);
    if (peer === undefined || this.book.trustOf(peer.ipAddress, peer.port) !== 'none') return;
    peer.applyPenalty(points, `penalty ${points}`);
  }

  private pushNodeInfo(peer: Peer): void {
    if (this.deferredNodeInfo.has(peer.id)) return;
    const wait = this.sent.waitFor('postNodeInfo', peer.id, 4);
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.deferredNodeInfo.delete(peer.id);
        if (this.peers.get(peer.id) === peer) this.pushNodeInfo(peer);
      }, wait);
      timer.unref();
      this.deferredNodeInfo.set(peer.id, timer);
      return;
    }
    this.sent.take('postNodeInfo', peer.id, 4);
    try {
      peer.send('postNodeInfo', this.encodedNodeInfo);
    } catch {
      this.stats.totalErrors += 1;
    }
  }

  private attach(peer: Peer): void {
    this.peers.set(peer.id, peer);
    peer.on('request', (request) => {
      this.stats.totalRequestsReceived[request.procedure] = (this.stats.totalRequestsReceived[request.procedure] ?? 0) + 1;
      this.emit('request:received', { procedure: request.procedure, peerId: peer.id });
      void dispatchRequest(this.dispatch, request);
    });
    peer.on('message', (message) => {
      this.stats.totalMessagesReceived[message.event] = (this.stats.totalMessagesReceived[message.event] ?? 0) + 1;
      dispatchMessage(this.dispatch, message);
      this.emit('message:received', message);
    });
    peer.on('update', () => {
      if (this.connected.has(peer.id)) this.emit('peer:update', peerInfoOf(peer));
    });
    peer.on('ban', (reason) => this.banPeer(peer, reason));
    peer.once('close', (code, reason) => this.onPeerClosed(peer, code, reason));
  }

  private onPeerClosed(peer: Peer, code: number, reason: string): void {
    if (this.peers.get(peer.id) !== peer) return;
    this.peers.delete(peer.id);
    this.stats.totalRemovedPeers += 1;
    const wasConnected = this.connected.delete(peer.id);
    clearTimeout(this.deferredNodeInfo.get(peer.id));
    this.deferredNodeInfo.delete(peer.id);
    clearTimeout(this.latencyTimers.get(peer.id));
    this.latencyTimers.delete(peer.id);
    this.sent.forget(peer.id);
    if (!wasConnected) return;
    this.stats[peer.direction === 'inbound' ? 'incoming' : 'outgoing'].disconnects += 1;
    this.logger.debug({ peerId: peer.id, code, reason }, 'Peer disconnected');
    this.emit('peer:disconnect', { peerId: peer.id, direction: peer.direction, code, reason });
  }

  /** A ban removes the peer (close 1000, as a Lisk node does) and bans its IP for 24 h unless it is fixed or whitelisted. */
  private banPeer(peer: Peer, reason: string): void {
    if (this.peers.get(peer.id) === peer) peer.disconnect(CloseCode.INTENTIONAL);
    this.banAddress(peer.ipAddress, peer.port, reason);
  }

  private banAddress(ipAddress: string, port: number, reason: string): void {
    const peerId = peerIdOf(ipAddress, port);
    this.book.ban({ ipAddress, port }, this.timing.banTime);
    const record = this.stats.banning.bannedPeers[peerId];
    this.stats.banning.count += 1;
    this.stats.banning.bannedPeers[peerId] = { banCount: (record?.banCount ?? 0) + 1, lastBanTime: Date.now() };
    this.logger.info({ peerId, reason }, 'Banned peer');
    this.emit('peer:ban', { peerId, ipAddress, reason });
  }

  // ---------------------------------------------------------------------------------------------
  // inbound

  private onInboundSocket(socket: ScSocket, requestUrl: string | undefined, ipAddress: string): void {
    socket.on('violation', (reason) => {
      const claimed = Number.parseInt(new URLSearchParams((requestUrl ?? '').split('?')[1] ?? '').get('port') ?? '', 10);
      this.banAddress(ipAddress, Number.isNaN(claimed) ? 0 : claimed, reason);
    });
    socket.once('handshake', (accept) => this.admit(socket, requestUrl, ipAddress, accept));
  }

  private admit(socket: ScSocket, requestUrl: string | undefined, ipAddress: string, accept: () => void): void {
    const admission = admitInbound(requestUrl, ipAddress, this.nodeInfo, this.listenPort);
    if (!admission.admitted) {
      if (admission.selfPeerId !== undefined) this.book.removePeer(admission.selfPeerId);
      this.stats.totalErrors += 1;
      this.logger.debug({ ipAddress, code: admission.code, reason: admission.reason }, 'Refused inbound peer');
      socket.disconnect(admission.code, admission.reason);
      return;
    }
    const { claims } = admission;
    if (this.peers.has(claims.peerId) || this.dialing.has(claims.peerId)) {
      socket.disconnect(CloseCode.DUPLICATE_CONNECTION, CloseReason.DUPLICATE_CONNECTION);
      return;
    }
    const inbound = [...this.peers.values()].filter((peer) => peer.direction === 'inbound');
    if (inbound.length >= this.limits.maxInbound) {
      const victim = selectInboundPeerToEvict(inbound, (peer) => netgroupOf(peer.ipAddress, this.secret));
      victim?.disconnect(CloseCode.EVICTED, `Evicted inbound peer ${victim.id}`);
    }
    const peer = new Peer(socket, {
      direction: 'inbound',
      ipAddress: claims.ipAddress,
      port: claims.port,
      ackTimeout: this.timing.inboundAckTimeout,
      sharedState: {
        chainID: claims.chainID,
        networkVersion: claims.networkVersion,
        nonce: claims.nonce,
        advertiseAddress: claims.advertiseAddress,
        options: undefined,
      },
    });
    peer.trust = this.book.trustOf(peer.ipAddress, peer.port, false);
    this.attach(peer);
    if (!this.book.hasPeer(peer.id)) {
      this.book.addPeer({
        ipAddress: peer.ipAddress,
        port: peer.port,
        sourceAddress: peer.ipAddress,
        advertiseAddress: claims.advertiseAddress,
      });
    }
    // A Lisk server pushes its node info before it answers the handshake; clients accept that.
    this.pushNodeInfo(peer);
    accept();
    this.connected.add(peer.id);
    this.stats.incoming.connects += 1;
    this.scheduleLatencyPing(peer);
    this.logger.debug({ peerId: peer.id }, 'Inbound peer connected');
    this.emit('peer:connect', peerInfoOf(peer));
  }

  /** The server side's "ping" procedure, every 20–60 s (`peer/inbound.ts`); its round trip is the peer's latency. */
  private scheduleLatencyPing(peer: Peer): void {
    const { latencyPingMin: min, latencyPingMax: max } = this.timing;
    const timer = setTimeout(
      async () => {
        const started = Date.now();
        await peer.request('ping').catch(() => undefined);
        peer.latency = Date.now() - started;
        if (this.peers.get(peer.id) === peer) this.scheduleLatencyPing(peer);
      },
      min + Math.random() * (max - min),
    );
    timer.unref();
    this.latencyTimers.set(peer.id, timer);
  }

  // ---------------------------------------------------------------------------------------------
  // outbound

  private outboundCount(): number {
    return [...this.peers.values()].filter((peer) => peer.direction === 'outbound').length + this.dialing.size;
  }

  private disconnectedFixedPeers(): PeerAddress[] {
    return this.book.fixedPeers.filter((peer) => {
      const id = peerIdOf(peer.ipAddress, peer.port);
      return !this.peers.has(id) && !this.dialing.has(id);
    });
  }

  /** Outbound slots left, keeping one for every fixed peer we are not connected to (`getFreeOutboundSlots`). */
  private freeOutboundSlots(): number {
    return this.limits.maxOutbound - this.outboundCount() - this.disconnectedFixedPeers().length;
  }

  /** The populator round (every 10 s): fill free slots from the book, always redial fixed peers, rediscover from seeds every 30 s. */
  private populate(): void {
    if (!this.running) return;
    const free = this.freeOutboundSlots();
    if (free <= 0) this.disconnectSeedPeers();
    const notConnected = (entry: { peerId: string }): boolean => !this.peers.has(entry.peerId) && !this.dialing.has(entry.peerId);
    const picks = selectPeersForConnection(this.book.newPeers.filter(notConnected), this.book.triedPeers.filter(notConnected), free);
    for (const peer of [...picks, ...this.disconnectedFixedPeers()]) void this.connectOutbound(peer);
    if (Date.now() >= this.nextSeedDiscovery && this.freeOutboundSlots() > 0) {
      this.discoverFromSeeds();
      this.nextSeedDiscovery = Date.now() + this.timing.seedDiscoveryInterval;
    }
  }

  private discoverFromSeeds(): void {
    const free = this.freeOutboundSlots();
    if (free <= 0 || this.book.seedPeers.length === 0) return;
    for (const seed of this.book.seedPeers) {
      const peer = this.peers.get(peerIdOf(seed.ipAddress, seed.port));
      if (peer !== undefined && this.connected.has(peer.id)) void this.discoverFrom(peer);
    }
    for (const seed of shuffle(this.book.seedPeers.slice(0, free))) void this.connectOutbound(seed);
  }

  /** With every outbound slot in use, seed peers that are not also fixed make room (`_disconnectFromSeedPeers`). */
  private disconnectSeedPeers(): void {
    for (const peer of this.connectedPeerObjects()) {
      if (peer.direction === 'outbound' && peer.trust !== 'fixed' && this.book.trustOf(peer.ipAddress, peer.port) === 'seed') {
        peer.disconnect(CloseCode.INTENTIONAL, CloseReason.SEED_DISCONNECT);
      }
    }
  }

  /** Every 5 min one random non-fixed outbound peer goes, so that the outbound set keeps changing. */
  private evictOutbound(): void {
    const candidates = [...this.peers.values()].filter((peer) => peer.direction === 'outbound' && peer.trust !== 'fixed');
    const victim = candidates[Math.floor(Math.random() * candidates.length)];
    victim?.disconnect(CloseCode.EVICTED, `Evicted outbound peer ${victim.id}`);
  }

  private async connectOutbound(address: PeerAddress): Promise<void> {
    const peerId = peerIdOf(address.ipAddress, address.port);
    if (!this.running || this.peers.has(peerId) || this.dialing.has(peerId) || this.book.isBanned(address.ipAddress)) return;
    const sameIp = [...this.peers.values()].some((peer) => peer.direction === 'outbound' && peer.ipAddress === address.ipAddress);
    const sameIpDialing = [...this.dialing.values()].some((dialed) => dialed.ipAddress === address.ipAddress);
    if (address.ipAddress !== OUR_LOOPBACK && (sameIp || sameIpDialing)) return;
    this.dialing.set(peerId, address);
    let socket: ScSocket;
    try {
      const claims = { ...this.nodeInfo, port: this.listenPort };
      socket = await dialSocket(connectionUrl(address.ipAddress, address.port, claims), {
        localAddress: this.options.host,
        connectTimeout: this.timing.connectTimeout,
        maxPayload: this.limits.wsMaxPayload,
      });
    } catch (error) {
      this.dialing.delete(peerId);
      return this.connectFailed(address, error as Error);
    }
    this.dialing.delete(peerId);
    if (!this.running || this.peers.has(peerId)) return socket.disconnect(CloseCode.INTENTIONAL);
    // A WebSocket control frame from the server: lisk-p2p charges 100, i.e. a ban.
    socket.on('violation', (reason) => this.banAddress(address.ipAddress, address.port, reason));
    const peer = new Peer(socket, {
      direction: 'outbound',
      ipAddress: address.ipAddress,
      port: address.port,
      ackTimeout: this.timing.outboundAckTimeout,
      sharedState: { chainID: undefined, networkVersion: undefined, nonce: undefined, advertiseAddress: true, options: undefined },
    });
    peer.trust = this.book.trustOf(peer.ipAddress, peer.port, false);
    this.attach(peer);
    try {
      await socket.handshake(this.timing.outboundAckTimeout);
      this.pushNodeInfo(peer);
      await this.fetchNodeInfo(peer);
    } catch (error) {
      if (!socket.isClosed)
        peer.disconnect(error instanceof P2pHandshakeError ? error.closeCode : CloseCode.INTENTIONAL, (error as Error).message);
      return this.connectFailed(address, error as Error);
    }
    await this.discoverFrom(peer);
    if (this.peers.get(peerId) !== peer || socket.isClosed)
      return this.connectFailed(address, new P2pStateError('Peer closed while connecting'));
    if (!this.book.hasPeer(peerId)) this.book.addPeer(address);
    this.book.upgradePeer(address);
    this.connected.add(peerId);
    this.stats.outgoing.connects += 1;
    this.logger.debug({ peerId }, 'Outbound peer connected');
    this.emit('peer:connect', peerInfoOf(peer));
    if (!this.hasConnected) {
      this.hasConnected = true;
      this.emit('network:ready');
    }
  }

  private connectFailed(address: PeerAddress, error: Error): void {
    const peerId = peerIdOf(address.ipAddress, address.port);
    this.book.downgradePeer(address);
    this.stats.totalErrors += 1;
    this.logger.debug({ peerId, err: error }, 'Outbound connection failed');
    this.emit('peer:connect-failed', { peerId, error });
  }

  /** getNodeInfo once per connection; undecodable node info costs 100, another chain or major version closes with 4104. */
  private async fetchNodeInfo(peer: Peer): Promise<void> {
    const { data } = await peer.request('getNodeInfo');
    let info: NodeInfo;
    try {
      info = decodeNodeInfo(data);
    } catch (error) {
      peer.applyPenalty(PENALTY_BAN, 'invalid node info');
      throw error;
    }
    const problem = incompatibility(info, this.nodeInfo);
    if (problem !== undefined) throw new P2pHandshakeError(CloseCode.INCOMPATIBLE_PEER, problem);
    peer.sharedState = { ...info };
  }

  /** getPeers (at most once per 10 s per peer); new addresses go to the new list with the peer as source. */
  private async discoverFrom(peer: Peer): Promise<void> {
    if (!this.sent.take('getPeers', peer.id, GET_PEERS_LIMIT)) return;
    let peers: PeerAddress[];
    try {
      peers = decodeGetPeersAnswer((await peer.request('getPeers')).data);
    } catch (error) {
      if (error instanceof InvalidPeerListError) peer.applyPenalty(PENALTY_BAN, error.message);
      return;
    }
    for (const found of peers) {
      if (this.book.hasPeer(peerIdOf(found.ipAddress, found.port))) continue;
      if (this.book.addPeer({ ...found, sourceAddress: peer.ipAddress })) {
        this.stats.totalPeersDiscovered += 1;
        this.emit('peer:discovered', { ipAddress: found.ipAddress, port: found.port });
      }
    }
  }
}

/** Only the messages a Lisk node accepts may be sent; anything else would get us banned. */
function assertAccepted(event: string): void {
  if (!isAcceptedMessage(event)) throw new P2pNotPermittedError(event);
}

function peerInfoOf(peer: Peer): P2pPeerInfo {
  const { chainID, networkVersion, nonce, advertiseAddress, options } = peer.sharedState;
  return {
    peerId: peer.id,
    ipAddress: peer.ipAddress,
    port: peer.port,
    direction: peer.direction,
    chainID,
    networkVersion,
    nonce,
    advertiseAddress,
    options,
  };
}
