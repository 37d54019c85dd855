/**
 * Basalt's Lisk P2P node: the server for inbound peers, outbound connections chosen from the
 * peer book (outbound-connector.ts), node-info pushes, penalties and bans, and the calls the node
 * makes to its peers. It follows `elements/lisk-p2p/src/p2p.ts` and `peer_pool.ts` with the engine
 * glue of `framework/src/engine/network/network.ts`; where lisk-sdk leaves room (our own send
 * rates, failed handshakes), it stays within what a Lisk peer tolerates.
 *
 * Accepting a peer: HTTP 401 for banned IPs → `#handshake` → admission (admission.ts) →
 * postNodeInfo → handshake answer; the server side then pings the peer with the "ping" procedure
 * every 20–60 s to measure its latency.
 */
import { EventEmitter } from 'node:events';
import { randomBytes } from '../crypto/index.js';
import { type Logger, silentLogger } from '../logger.js';
import { admitInbound } from './admission.js';
import { CloseCode, CloseReason, MAX_PEER_INFO_SIZE, NONCE_LENGTH_BYTES, RATE_INTERVAL } from './constants.js';
import { encodeGetPeersAnswer } from './discovery.js';
import {
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
import { emptyNodeInfoOptions, encodeNodeInfo, type NodeInfo, type NodeInfoOptions } from './node-info.js';
import { NodeInfoPusher } from './node-info-push.js';
import { type ConnectorHost, OutboundConnector } from './outbound-connector.js';
import { type IncomingMessage, Peer, type PeerDirection } from './peer.js';
import { type PeerAddress, peerIdOf } from './peer-address.js';
import { PeerBook } from './peer-book.js';
import { netgroupOf } from './peer-buckets.js';
import { sanitizePeerLists } from './peer-lists.js';
import { selectInboundPeerToEvict, selectPeerForRequest, selectPeersForSend } from './peer-selection.js';
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

export class P2pNetwork extends EventEmitter<P2pNetworkEvents> {
  private readonly timing: P2pTiming;
  private readonly limits: P2pLimits;
  private readonly logger: Logger;
  private readonly secret: number;
  private readonly book: PeerBook;
  private readonly peers = new Map<string, Peer>();
  private readonly connected = new Set<string>();
  private readonly received: ReceivedRateCounter;
  private readonly sent: SentRateBudget;
  private readonly dispatch: DispatchContext;
  private readonly pusher: NodeInfoPusher;
  private readonly outbound: OutboundConnector;
  private readonly stats: P2pStats = emptyStats();
  private nodeInfo: NodeInfo;
  private encodedNodeInfo: Buffer;
  private server: InboundServer | undefined;
  private listenPort: number;
  private running = false;
  private hasConnected = false;
  private timers: NodeJS.Timeout[] = [];

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
    this.pusher = new NodeInfoPusher(
      this.sent,
      () => this.encodedNodeInfo,
      (peer) => this.peers.get(peer.id) === peer,
    );
    this.outbound = new OutboundConnector(this.connectorHost());
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
    this.every(this.timing.populatorInterval, () => this.outbound.populate());
    this.every(this.timing.outboundShuffleInterval, () => this.outbound.evictOne());
    this.outbound.start();
  }

  async stop(): Promise<void> {
    if (!this.running) throw new P2pStateError('The P2P network is not running');
    this.running = false;
    this.hasConnected = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.pusher.cancelAll();
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
    for (const peer of this.peers.values()) this.pusher.push(peer);
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
    if (!this.trySend(peer, event, data)) throw new P2pRateLimitError(event, peerId);
  }

  // ---------------------------------------------------------------------------------------------
  // peers

  private every(interval: number, task: () => void): void {
    const timer = setInterval(this.guarded(task), interval);
    timer.unref();
    this.timers.push(timer);
  }

  private connectedPeerObjects(): Peer[] {
    return [...this.connected].map((id) => this.peers.get(id)).filter((peer): peer is Peer => peer?.isOpen === true);
  }

  private connectedPeer(peerId: string): Peer {
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

  private attach(peer: Peer): void {
    this.peers.set(peer.id, peer);
    peer.on(
      'request',
      this.guarded((request) => {
        this.stats.totalRequestsReceived[request.procedure] = (this.stats.totalRequestsReceived[request.procedure] ?? 0) + 1;
        this.emit('request:received', { procedure: request.procedure, peerId: peer.id });
        void dispatchRequest(this.dispatch, request);
      }),
    );
    peer.on(
      'message',
      this.guarded((message) => {
        this.stats.totalMessagesReceived[message.event] = (this.stats.totalMessagesReceived[message.event] ?? 0) + 1;
        dispatchMessage(this.dispatch, message);
        this.emit('message:received', message);
      }),
    );
    peer.on(
      'update',
      this.guarded(() => {
        if (this.connected.has(peer.id)) this.emit('peer:update', peerInfoOf(peer));
      }),
    );
    peer.on(
      'ban',
      this.guarded((reason) => this.banPeer(peer, reason)),
    );
    peer.once(
      'close',
      this.guarded((code, reason) => this.onPeerClosed(peer, code, reason)),
    );
  }

  /**
   * Wraps a reaction to a socket event. These run inside the WebSocket's read loop, where an
   * exception (say, from one of the node's event listeners) must be logged, not thrown.
   */
  private guarded<A extends unknown[]>(reaction: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      try {
        reaction(...args);
      } catch (error) {
        this.stats.totalErrors += 1;
        this.logger.error({ err: error }, 'P2P event handling failed');
      }
    };
  }

  private onPeerClosed(peer: Peer, code: number, reason: string): void {
    if (this.peers.get(peer.id) !== peer) return;
    this.peers.delete(peer.id);
    this.stats.totalRemovedPeers += 1;
    const wasConnected = this.connected.delete(peer.id);
    this.pusher.cancel(peer.id);
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
    if (!this.book.ban({ ipAddress, port }, this.timing.banTime)) {
      this.logger.info({ peerId, reason }, 'Configured peer misbehaved; disconnected, not banned');
      return;
    }
    const record = this.stats.banning.bannedPeers[peerId];
    this.stats.banning.count += 1;
    this.stats.banning.bannedPeers[peerId] = { banCount: (record?.banCount ?? 0) + 1, lastBanTime: Date.now() };
    this.logger.info({ peerId, reason }, 'Banned peer');
    this.emit('peer:ban', { peerId, ipAddress, reason });
  }

  // ---------------------------------------------------------------------------------------------
  // inbound

  private onInboundSocket(socket: ScSocket, requestUrl: string | undefined, ipAddress: string): void {
    socket.on(
      'violation',
      this.guarded((reason) => this.banAddress(ipAddress, claimedPort(requestUrl), reason)),
    );
    socket.once(
      'handshake',
      this.guarded((accept) => this.admit(socket, requestUrl, ipAddress, accept)),
    );
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
    if (this.peers.has(claims.peerId) || this.outbound.isDialing(claims.peerId)) {
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
    this.pusher.push(peer);
    accept();
    peer.startLatencyPings(this.timing.latencyPingMin, this.timing.latencyPingMax);
    this.markConnected(peer);
  }

  private markConnected(peer: Peer): void {
    this.connected.add(peer.id);
    this.stats[peer.direction === 'inbound' ? 'incoming' : 'outgoing'].connects += 1;
    this.logger.debug({ peerId: peer.id, direction: peer.direction }, 'Peer connected');
    this.emit('peer:connect', peerInfoOf(peer));
    if (peer.direction === 'outbound' && !this.hasConnected) {
      this.hasConnected = true;
      this.emit('network:ready');
    }
  }

  private connectorHost(): ConnectorHost {
    return {
      book: this.book,
      timing: this.timing,
      limits: this.limits,
      sent: this.sent,
      localAddress: this.options.host,
      isRunning: () => this.running,
      nodeInfo: () => this.nodeInfo,
      listenPort: () => this.listenPort,
      peers: () => this.peers.values(),
      peer: (peerId) => this.peers.get(peerId),
      isConnected: (peerId) => this.connected.has(peerId),
      adopt: (peer) => this.attach(peer),
      pushNodeInfo: (peer) => this.pusher.push(peer),
      guarded: (reaction) => this.guarded(reaction),
      ban: (ipAddress, port, reason) => this.banAddress(ipAddress, port, reason),
      connected: (peer) => this.markConnected(peer),
      failed: (address, error) => {
        this.book.downgradePeer(address);
        this.stats.totalErrors += 1;
        this.logger.debug({ peerId: peerIdOf(address.ipAddress, address.port), err: error }, 'Outbound connection failed');
        this.emit('peer:connect-failed', { peerId: peerIdOf(address.ipAddress, address.port), error });
      },
      discovered: (address) => {
        this.stats.totalPeersDiscovered += 1;
        this.emit('peer:discovered', address);
      },
    };
  }
}

/** The port a connecting peer claims in its query (0 when it claims none), for banning it before admission. */
function claimedPort(requestUrl: string | undefined): number {
  const port = Number.parseInt(new URLSearchParams((requestUrl ?? '').split('?')[1] ?? '').get('port') ?? '', 10);
  return Number.isNaN(port) ? 0 : port;
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
