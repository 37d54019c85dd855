/**
 * One socketcluster v1 connection over a `ws` WebSocket, either side. It implements exactly what
 * Lisk P2P needs (socketcluster-server 14.6.0 `scserver.js`/`scserversocket.js`,
 * socketcluster-client 14.3.1 `lib/sctransport.js`):
 *
 * - client: sends `#handshake` (cid 1) once open, closes with 4000 when no `#1` arrives within the
 *   handshake answer's `pingTimeout` (the ack timeout until then), answers every `#1` with `#2`;
 * - server: expects `#handshake` first (else 4009) within 10 s (else 4005), sends `#1` every 8 s,
 *   closes with 4001 after 20 s without any frame from the client;
 * - both: `cid`-numbered requests with a timeout, `rid` answers, `#disconnect` before a close.
 *
 * It never sends WebSocket control frames (a Lisk node bans the IP of a peer that does) and
 * reports any it receives as a violation; the owner decides the punishment.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { CloseCode, SERVER_PING_TIMEOUT } from './constants.js';
import { P2pConnectionClosedError, P2pRemoteError, P2pTimeoutError } from './errors.js';
import {
  answerFrame,
  answerFrameBytes,
  disconnectFrame,
  errorFrame,
  eventFrame,
  type HandshakeAnswer,
  parseDisconnect,
  parseFrame,
  remoteErrorMessage,
  SC_DISCONNECT,
  SC_HANDSHAKE,
  SC_PONG,
  type ScPacket,
} from './socketcluster.js';

export type ScRole = 'client' | 'server';

/** How long a closed socket waits for the peer's close frame before dropping the connection. */
const CLOSE_GRACE = 2_000;

export interface ScSocketOptions {
  role: ScRole;
  /** Server: `#1` interval and the silence allowed from the client (ms). */
  pingInterval?: number;
  pingTimeout?: number;
  /** Server: time allowed for `#handshake` (ms). */
  handshakeTimeout?: number;
  /** Server: the frame filter; a frame it rejects is reported as a violation and the socket terminated. */
  frameFilter?: (text: string) => string | undefined;
}

/** Answers one received request; the first call wins. */
export interface ScResponder {
  end(data: unknown): void;
  /** `end` with `data` given as its JSON text, in ASCII pieces (`answerFrameBytes`). */
  endJson(dataJson: readonly string[]): void;
  error(message: string): void;
}

export interface ScSocketEvents {
  /** Server side: `#handshake` arrived; call `accept` to answer it, or `disconnect` to refuse. */
  handshake: [accept: () => void];
  /** A non-protocol event; `respond` is set when the sender asked for an answer (cid). */
  event: [name: string, data: unknown, respond: ScResponder | undefined];
  /** Every received frame (for the frame-rate rule). */
  frame: [];
  /** A control frame or a frame the filter rejected; the socket is already terminated. */
  violation: [reason: string];
  close: [code: number, reason: string];
}

interface Pending {
  label: string;
  resolve: (data: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class ScSocket extends EventEmitter<ScSocketEvents> {
  private state: 'connecting' | 'open' | 'closed' = 'connecting';
  private nextCid = 1;
  private readonly pending = new Map<number, Pending>();
  private remoteClose: { code: number; reason: string } | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private clientPingTimeout = SERVER_PING_TIMEOUT;

  constructor(
    readonly ws: WebSocket,
    private readonly options: ScSocketOptions,
  ) {
    super();
    ws.on('message', (raw, isBinary) => this.onMessage(raw, isBinary));
    ws.on('ping', () => this.violate('WebSocket ping control frame'));
    ws.on('pong', () => this.violate('WebSocket pong control frame'));
    ws.on('close', (code, reason) => this.onClosed(code, reason.toString()));
    ws.on('error', () => undefined); // always followed by 'close'
    if (options.role === 'server') this.startServerTimers();
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  /** Client: sends `#handshake` and waits for its answer (the socket must be open). */
  async handshake(timeoutMs: number): Promise<HandshakeAnswer> {
    this.resetClientPingTimeout(timeoutMs);
    const answer = (await this.request(SC_HANDSHAKE, { authToken: null }, timeoutMs)) as Partial<HandshakeAnswer> | undefined;
    const pingTimeout = answer?.pingTimeout;
    this.clientPingTimeout = typeof pingTimeout === 'number' && pingTimeout > 0 ? pingTimeout : SERVER_PING_TIMEOUT;
    this.resetClientPingTimeout(this.clientPingTimeout);
    if (this.state === 'connecting') this.state = 'open';
    return { id: String(answer?.id ?? ''), pingTimeout: this.clientPingTimeout, isAuthenticated: false };
  }

  /** Sends an event with a cid and resolves with the answer's `data`; rejects on error answers, timeout or close. */
  request(event: string, data: unknown, timeoutMs: number): Promise<unknown> {
    if (this.state === 'closed') return Promise.reject(this.closedError());
    const cid = this.nextCid++;
    return new Promise((resolve, reject) => {
      const label = event === 'rpc-request' ? String((data as { procedure?: unknown }).procedure) : event;
      const timer = setTimeout(() => {
        this.pending.delete(cid);
        reject(new P2pTimeoutError(label, timeoutMs));
      }, timeoutMs);
      this.pending.set(cid, { label, resolve, reject, timer });
      this.sendText(eventFrame(event, data, cid));
    });
  }

  /** Sends an event that wants no answer; false when the socket is no longer open. */
  emitEvent(event: string, data: unknown): boolean {
    return this.sendText(eventFrame(event, data));
  }

  /** Closes the way socketcluster does: `#disconnect {code, data}` first (unless `notify` is false), then the close frame. */
  disconnect(code: number = CloseCode.INTENTIONAL, reason?: string, notify = true): void {
    if (this.state === 'closed') return;
    if (notify) this.sendText(disconnectFrame(code, reason));
    this.finish(code, reason ?? '');
    this.ws.close(code);
    // A peer that never answers the close frame must not hold the TCP connection for ws's 30 s.
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE).unref();
  }

  /** Drops the TCP connection without a close handshake (what a Lisk node does to an attacker). */
  terminate(code = 1006, reason = ''): void {
    this.finish(code, reason);
    this.ws.terminate();
  }

  private sendText(text: string): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(text);
    return true;
  }

  private violate(reason: string): void {
    if (this.state === 'closed') return;
    this.terminate(1006, reason);
    this.emit('violation', reason);
  }

  private onMessage(raw: WebSocket.RawData, _isBinary: boolean): void {
    if (this.state === 'closed') return;
    const text = Array.isArray(raw) ? Buffer.concat(raw).toString() : Buffer.from(raw as ArrayBuffer).toString();
    if (this.options.role === 'server') {
      const problem = this.options.frameFilter?.(text);
      if (problem !== undefined) {
        this.violate(problem);
        return;
      }
      this.resetSilenceTimer();
    }
    this.emit('frame');
    let packet: ScPacket;
    try {
      packet = parseFrame(text);
    } catch {
      if (this.options.role === 'server' && this.state === 'connecting') this.disconnect(CloseCode.HANDSHAKE_EXPECTED, undefined, false);
      return;
    }
    this.onPacket(packet);
  }

  private onPacket(packet: ScPacket): void {
    const isServer = this.options.role === 'server';
    if (isServer && this.state === 'connecting' && !(packet.kind === 'event' && packet.event === SC_HANDSHAKE)) {
      this.disconnect(CloseCode.HANDSHAKE_EXPECTED, undefined, false);
      return;
    }
    switch (packet.kind) {
      case 'ping':
        if (!isServer) {
          this.sendText(SC_PONG);
          this.resetClientPingTimeout(this.clientPingTimeout);
        }
        return;
      case 'answer':
        this.onAnswer(packet.rid, packet.data, packet.error);
        return;
      case 'event':
        this.onEvent(packet.event, packet.data, packet.cid);
        return;
      default:
        return;
    }
  }

  private onAnswer(rid: number, data: unknown, error: unknown): void {
    const entry = this.pending.get(rid);
    if (entry === undefined) return;
    this.pending.delete(rid);
    clearTimeout(entry.timer);
    if (error !== undefined && error !== null) entry.reject(new P2pRemoteError(entry.label, remoteErrorMessage(error)));
    else entry.resolve(data);
  }

  private onEvent(name: string, data: unknown, cid: number | undefined): void {
    if (name === SC_HANDSHAKE) {
      if (this.options.role === 'server' && this.state === 'connecting') this.onServerHandshake(cid);
      return;
    }
    if (name === SC_DISCONNECT) {
      this.remoteClose = parseDisconnect(data) ?? this.remoteClose;
      return;
    }
    if (name.startsWith('#')) return; // socketcluster internals Lisk never uses
    this.emit('event', name, data, cid === undefined ? undefined : this.responder(cid));
  }

  private onServerHandshake(cid: number | undefined): void {
    clearTimeout(this.handshakeTimer);
    this.emit('handshake', () => {
      if (this.state !== 'connecting') return;
      this.state = 'open';
      const answer: HandshakeAnswer = {
        id: randomBytes(15).toString('base64url'),
        pingTimeout: this.options.pingTimeout ?? SERVER_PING_TIMEOUT,
        isAuthenticated: false,
      };
      if (cid !== undefined) this.sendText(answerFrame(cid, answer));
    });
  }

  private responder(cid: number): ScResponder {
    let answered = false;
    return {
      end: (data) => {
        if (answered) return;
        answered = true;
        this.sendText(answerFrame(cid, data));
      },
      endJson: (dataJson) => {
        if (answered) return;
        answered = true;
        if (this.ws.readyState === WebSocket.OPEN) this.ws.send(answerFrameBytes(cid, dataJson), { binary: false });
      },
      error: (message) => {
        if (answered) return;
        answered = true;
        this.sendText(errorFrame(cid, message));
      },
    };
  }

  private startServerTimers(): void {
    const interval = this.options.pingInterval;
    if (interval !== undefined && interval > 0) {
      this.pingTimer = setInterval(() => this.sendText('#1'), interval);
    }
    this.resetSilenceTimer();
    const handshakeTimeout = this.options.handshakeTimeout;
    if (handshakeTimeout !== undefined && handshakeTimeout > 0) {
      this.handshakeTimer = setTimeout(() => this.disconnect(CloseCode.HANDSHAKE_TIMEOUT), handshakeTimeout);
    }
  }

  private resetSilenceTimer(): void {
    const timeout = this.options.pingTimeout;
    if (timeout === undefined || timeout <= 0) return;
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.disconnect(CloseCode.SERVER_PING_TIMEOUT, undefined, false), timeout);
  }

  private resetClientPingTimeout(timeout: number): void {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.disconnect(CloseCode.CLIENT_PING_TIMEOUT, undefined, false), timeout);
  }

  private closedError(): P2pConnectionClosedError {
    return new P2pConnectionClosedError(this.remoteClose?.code ?? 1006, this.remoteClose?.reason ?? '');
  }

  private onClosed(code: number, reason: string): void {
    const reported = this.remoteClose ?? { code, reason };
    this.finish(reported.code, reported.reason);
  }

  /** Marks the socket closed once: timers off, pending requests rejected, `close` emitted. */
  private finish(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.remoteClose ??= { code, reason };
    clearInterval(this.pingTimer);
    clearTimeout(this.silenceTimer);
    clearTimeout(this.handshakeTimer);
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new P2pConnectionClosedError(code, reason));
    }
    this.pending.clear();
    this.emit('close', code, reason);
  }
}
