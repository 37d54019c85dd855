/**
 * A connected peer: one ScSocket plus the per-connection state lisk-p2p keeps
 * (`elements/lisk-p2p/src/peer/base.ts`, `peer/inbound.ts`, `peer/outbound.ts`): reputation,
 * frame and discovery counters, the peer's node info, latency and response rate. It applies the
 * protocol-level rules of lisk-p2p itself; the engine-level rules (unknown names, per-procedure
 * limits) are the network's.
 */
import { EventEmitter } from 'node:events';
import {
  DEFAULT_REPUTATION,
  MAX_PEER_INFO_SIZE,
  PEER_STATUS_MESSAGE_RATE,
  PENALTY_BAN,
  PENALTY_RATE,
  PRODUCTIVITY_RESET_INTERVAL,
  RATE_INTERVAL,
  WS_MAX_MESSAGE_RATE,
  WS_MAX_MESSAGE_RATE_PENALTY,
} from './constants.js';
import {
  EncodedPayload,
  INVALID_RPC_REQUEST,
  parseRemoteMessage,
  parseRpcAnswer,
  parseRpcRequest,
  REMOTE_MESSAGE_EVENT,
  RPC_REQUEST_EVENT,
  remoteMessagePayload,
  rpcAnswerJson,
  rpcAnswerPayload,
  rpcRequestPayload,
} from './envelopes.js';
import { P2pConnectionClosedError, P2pProtocolError } from './errors.js';
import { decodeNodeInfo, type NodeInfoOptions } from './node-info.js';
import { peerIdOf } from './peer-address.js';
import type { PeerTrust } from './peer-book.js';
import type { ScResponder, ScSocket } from './sc-socket.js';

export type PeerDirection = 'inbound' | 'outbound';

/** The answer to the latency ping a Lisk server sends: the JSON string "pong" (`peer/outbound.ts`). */
const PONG = Buffer.from(JSON.stringify('pong'));
/** Protocol procedures allowed once per connection (getNodeInfo) or per 10 s (getPeers), never twice in one second. */
const DISCOVERY_PROCEDURES = new Set(['getNodeInfo', 'getPeers']);

/** A request received from a peer; answer it exactly once with `respond` or `fail`. */
export interface IncomingRequest {
  readonly procedure: string;
  /** Undefined when the request carried no data. */
  readonly data: Buffer | undefined;
  readonly peerId: string;
  respond(data: Uint8Array | EncodedPayload | undefined): void;
  fail(message: string): void;
}

export interface IncomingMessage {
  readonly event: string;
  readonly data: Buffer | undefined;
  readonly peerId: string;
}

/** What the peer told us about itself: from its connection query or getNodeInfo, options from postNodeInfo. */
export interface PeerSharedState {
  chainID: Buffer | undefined;
  networkVersion: string | undefined;
  nonce: string | undefined;
  advertiseAddress: boolean;
  options: NodeInfoOptions | undefined;
}

export interface PeerEvents {
  request: [request: IncomingRequest];
  message: [message: IncomingMessage];
  /** The peer's options changed (postNodeInfo or getNodeInfo). */
  update: [];
  /** Reputation fell to 0 or below; the owner bans and removes the peer. */
  ban: [reason: string];
  close: [code: number, reason: string];
}

export interface PeerConfig {
  direction: PeerDirection;
  ipAddress: string;
  port: number;
  /** Timeout of our requests on this socket (2 s outbound, 10 s inbound in lisk-sdk). */
  ackTimeout: number;
  sharedState: PeerSharedState;
}

export class Peer extends EventEmitter<PeerEvents> {
  readonly id: string;
  readonly direction: PeerDirection;
  readonly ipAddress: string;
  readonly port: number;
  readonly connectTime = Date.now();
  trust: PeerTrust = 'none';
  reputation = DEFAULT_REPUTATION;
  /** Round trip of the last latency ping (ms). */
  latency = 0;
  sharedState: PeerSharedState;
  readonly productivity = { requestCounter: 0, responseCounter: 0, responseRate: 0, lastResponded: 0 };

  private frameCount = 0;
  private readonly discoveryThisSecond = new Map<string, number>();
  private getNodeInfoCount = 0;
  private getPeersCount = 0;
  private postNodeInfoCount = 0;
  private banned = false;
  private readonly ackTimeout: number;
  private latencyTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly socket: ScSocket,
    config: PeerConfig,
  ) {
    super();
    this.direction = config.direction;
    this.ipAddress = config.ipAddress;
    this.port = config.port;
    this.id = peerIdOf(config.ipAddress, config.port);
    this.ackTimeout = config.ackTimeout;
    this.sharedState = config.sharedState;
    socket.on('frame', () => {
      this.frameCount += 1;
    });
    socket.on('event', (name, data, respond) => this.onEvent(name, data, respond));
    socket.on('close', (code, reason) => {
      clearTimeout(this.latencyTimer);
      this.emit('close', code, reason);
    });
  }

  get isOpen(): boolean {
    return this.socket.isOpen;
  }

  /** Sends an rpc-request and resolves with the answer's payload. */
  async request(procedure: string, data?: Uint8Array): Promise<{ data: Buffer | undefined; peerId: string }> {
    const answer = await this.socket.request(RPC_REQUEST_EVENT, rpcRequestPayload(procedure, data), this.ackTimeout);
    const envelope = parseRpcAnswer(answer);
    if (envelope === undefined) throw new P2pProtocolError(`Failed to handle response for procedure ${procedure}`);
    return envelope;
  }

  /** Sends a remote-message; throws P2pConnectionClosedError when the socket is closed. */
  send(event: string, data?: Uint8Array): void {
    if (!this.socket.emitEvent(REMOTE_MESSAGE_EVENT, remoteMessagePayload(event, data))) {
      throw new P2pConnectionClosedError(1006, `cannot send ${event}: socket not open`);
    }
  }

  /** Lowers the reputation; at 0 or below the peer asks its owner to ban it (once). */
  applyPenalty(points: number, reason = `penalty ${points}`): void {
    this.reputation -= points;
    if (this.reputation <= 0 && !this.banned) {
      this.banned = true;
      this.emit('ban', reason);
    }
  }

  disconnect(code?: number, reason?: string): void {
    this.socket.disconnect(code, reason);
  }

  /**
   * The server side of a connection asks the client for the "ping" procedure every `min`–`max` ms
   * (20–60 s in lisk-p2p, `peer/inbound.ts`); the round trip, answered or not, is the peer's latency.
   */
  startLatencyPings(min: number, max: number): void {
    if (this.socket.isClosed) return;
    this.latencyTimer = setTimeout(
      async () => {
        const started = Date.now();
        await this.request('ping').catch(() => undefined);
        this.latency = Date.now() - started;
        this.startLatencyPings(min, max);
      },
      min + Math.random() * (max - min),
    );
    this.latencyTimer.unref();
  }

  /**
   * Once per second (`peer/base.ts` `_resetCounters`): the frame-rate rule, the penalty for a
   * discovery procedure asked twice within the second, and the productivity reset.
   */
  tickSecond(now = Date.now()): void {
    const rate = (this.frameCount * 1000) / RATE_INTERVAL;
    this.frameCount = 0;
    if (rate > WS_MAX_MESSAGE_RATE) {
      this.applyPenalty(WS_MAX_MESSAGE_RATE_PENALTY * Math.max(1, Math.floor(rate / WS_MAX_MESSAGE_RATE)), 'frame rate');
    }
    for (const count of this.discoveryThisSecond.values()) {
      if (count > 1) this.applyPenalty(PENALTY_RATE, 'discovery repeated within a second');
    }
    this.discoveryThisSecond.clear();
    if (this.productivity.lastResponded < now - PRODUCTIVITY_RESET_INTERVAL) {
      Object.assign(this.productivity, { requestCounter: 0, responseCounter: 0, responseRate: 0, lastResponded: 0 });
    }
  }

  /** Every 10 s: the postNodeInfo and getPeers counters start again (getNodeInfo's never does). */
  tickStatusWindow(): void {
    this.postNodeInfoCount = 0;
    this.getPeersCount = 0;
  }

  private onEvent(name: string, data: unknown, respond: ScResponder | undefined): void {
    if (name === RPC_REQUEST_EVENT)
      this.onRequest(data, respond ?? { end: () => undefined, endJson: () => undefined, error: () => undefined });
    else if (name === REMOTE_MESSAGE_EVENT) this.onMessage(data);
  }

  private onRequest(data: unknown, respond: ScResponder): void {
    const envelope = parseRpcRequest(data);
    if (envelope === undefined) {
      respond.error(INVALID_RPC_REQUEST);
      return;
    }
    const { procedure } = envelope;
    if (this.direction === 'outbound' && procedure === 'ping') {
      respond.end(rpcAnswerPayload(PONG, this.id));
      return;
    }
    if (procedure === 'getNodeInfo' && ++this.getNodeInfoCount > 1) this.applyPenalty(PENALTY_RATE, 'getNodeInfo repeated');
    if (procedure === 'getPeers' && ++this.getPeersCount > 1) this.applyPenalty(PENALTY_RATE, 'getPeers repeated');
    if (DISCOVERY_PROCEDURES.has(procedure)) {
      const seen = this.discoveryThisSecond.get(procedure) ?? 0;
      this.discoveryThisSecond.set(procedure, seen + 1);
      if (seen > 0) return; // lisk-p2p drops it unanswered and charges at the next tick
    }
    this.productivity.requestCounter += 1;
    this.emit('request', this.incomingRequest(envelope.procedure, envelope.data, respond));
  }

  private incomingRequest(procedure: string, data: Buffer | undefined, respond: ScResponder): IncomingRequest {
    const { productivity } = this;
    let answered = false;
    const settle = (success: boolean): boolean => {
      if (answered) return false;
      answered = true;
      if (success) {
        productivity.responseCounter += 1;
        productivity.lastResponded = Date.now();
      }
      productivity.responseRate = productivity.responseCounter / Math.max(1, productivity.requestCounter);
      return true;
    };
    return {
      procedure,
      data,
      peerId: this.id,
      respond: (bytes) => {
        if (!settle(true)) return;
        if (bytes instanceof EncodedPayload) respond.endJson(rpcAnswerJson(bytes, this.id));
        else respond.end(rpcAnswerPayload(bytes, this.id));
      },
      fail: (message) => {
        if (settle(false)) respond.error(message);
      },
    };
  }

  private onMessage(data: unknown): void {
    const envelope = parseRemoteMessage(data);
    if (envelope === undefined) return;
    if (envelope.event === 'postNodeInfo') {
      if (++this.postNodeInfoCount > PEER_STATUS_MESSAGE_RATE) this.applyPenalty(PENALTY_RATE, 'postNodeInfo rate');
      this.updateOptions(envelope.data);
    }
    this.emit('message', { event: envelope.event, data: envelope.data, peerId: this.id });
  }

  /** A postNodeInfo only updates the sender's options; a malformed or oversized one costs 100. */
  private updateOptions(bytes: Buffer | undefined): void {
    try {
      const info = decodeNodeInfo(bytes);
      this.sharedState = { ...this.sharedState, options: info.options };
    } catch {
      this.applyPenalty(PENALTY_BAN, `invalid node info (over ${MAX_PEER_INFO_SIZE} bytes or undecodable)`);
      return;
    }
    this.emit('update');
  }
}
