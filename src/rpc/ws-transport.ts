/**
 * The WebSocket transport: `/rpc-ws` on the RPC port (lisk-sdk controller/ws/ws_server.ts).
 * Requests and batches go through the shared dispatcher and are answered in a text frame;
 * `subscribe` / `unsubscribe` take `params.topics` and, unlike lisk-sdk, are answered with a
 * result. Events reach the sockets whose topics match (topics.ts). A socket whose client does
 * not read is closed with code 1008 once its send buffer passes `maxBufferedBytes`, so no
 * socket ever holds an unbounded backlog.
 */
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_socket_context_t } from 'uWebSockets.js';
import { InvalidParamsError } from '../errors.js';
import type { Logger } from '../logger.js';
import { answerPayload } from './answer-bytes.js';
import type { MaybePromise, TransportDispatcher } from './dispatcher.js';
import { INTERNAL_ERROR } from './error-codes.js';
import { requestText } from './request-text.js';
import { errorResponse, type RpcAnswer } from './response.js';
import type { RpcSession, SessionMethod } from './session.js';
import { MAX_TOPICS_PER_SOCKET, parseTopics, topicsMatch } from './topics.js';

export const WS_PATH = '/rpc-ws';

/** Close codes (RFC 6455 §7.4.1) and reasons (at most 123 bytes) Basalt sends. */
const POLICY_VIOLATION = 1008;
const GOING_AWAY = 1001;
const BACKPRESSURE_REASON = 'Send buffer limit exceeded: the client does not read its messages.';
const SHUTDOWN_REASON = 'The node is shutting down.';

/** `WebSocket.send` status: the message was not queued because of backpressure. */
const SEND_DROPPED = 2;

export interface WsTransportOptions {
  /** Largest message accepted from a client; above it uWS drops the connection without a close frame (clients see 1006). */
  readonly maxMessageBytes: number;
  /** Bytes a socket may have waiting to be sent before it is cut off. */
  readonly maxBufferedBytes: number;
  /** `rpc.accessControlAllowOrigin`: `*`, or a comma-separated list of allowed origins. */
  readonly accessControlAllowOrigin: string;
  /** Seconds without traffic before uWS pings the client and, failing an answer, closes it. */
  readonly idleTimeoutSeconds: number;
}

interface ConnectionData {
  readonly connection: WsConnection;
}

/** One client socket: its subscriptions and its session methods. */
class WsConnection implements RpcSession {
  readonly topics = new Set<string>();
  socket: WebSocket<ConnectionData> | undefined;

  constructor(private readonly transport: WsTransport) {}

  sessionMethod(name: string): SessionMethod | undefined {
    if (name === 'subscribe') return this.subscribe;
    if (name === 'unsubscribe') return this.unsubscribe;
    return undefined;
  }

  // Created once per socket, not per request.
  private readonly subscribe: SessionMethod = (params) => this.transport.subscribe(this, parseTopics(params));
  private readonly unsubscribe: SessionMethod = (params) => this.transport.unsubscribe(this, parseTopics(params));
}

export class WsTransport {
  private readonly connections = new Set<WsConnection>();
  /** The connections with at least one topic: the only ones `publish` looks at. */
  private readonly subscribers = new Set<WsConnection>();
  private readonly allowedOrigins: ReadonlySet<string> | undefined;
  private cutOffs = 0;

  // `ws.cork` takes a callback without arguments: these fields feed one callback created once.
  private corkSocket: WebSocket<ConnectionData> | undefined;
  private corkMessage: string | Uint8Array = '';
  private corkStatus = 0;
  private readonly sendCorked = (): void => {
    this.corkStatus = (this.corkSocket as WebSocket<ConnectionData>).send(this.corkMessage, false, false);
  };

  constructor(
    private readonly dispatcher: TransportDispatcher,
    private readonly options: WsTransportOptions,
    private readonly logger: Logger,
  ) {
    const origin = options.accessControlAllowOrigin.trim();
    this.allowedOrigins =
      origin === '*'
        ? undefined
        : new Set(
            origin
              .split(',')
              .map((entry) => entry.trim())
              .filter((entry) => entry !== ''),
          );
  }

  /** Registers the `/rpc-ws` route on `app`. */
  attach(app: TemplatedApp): void {
    app.ws<ConnectionData>(WS_PATH, {
      maxPayloadLength: this.options.maxMessageBytes,
      // No uWS limit: uWS would silently drop messages past it, and drop the close frame of a
      // socket cut off for backpressure. `send` enforces the bound itself, with a close code.
      maxBackpressure: 0,
      closeOnBackpressureLimit: 0,
      idleTimeout: this.options.idleTimeoutSeconds,
      sendPingsAutomatically: true,
      compression: uWS.DISABLED,
      upgrade: (res, req, context) => this.upgrade(res, req, context),
      open: (ws) => {
        const connection = ws.getUserData().connection;
        connection.socket = ws;
        this.connections.add(connection);
      },
      message: (ws, data) => {
        // The ArrayBuffer is only valid during this call: decode it now.
        this.answer(ws.getUserData().connection, requestText(data));
      },
      close: (ws) => {
        const connection = ws.getUserData().connection;
        connection.socket = undefined;
        this.connections.delete(connection);
        this.subscribers.delete(connection);
      },
    });
  }

  /** Open sockets (for metrics and tests). */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Sockets closed because their client stopped reading, since start (for metrics). */
  get backpressureCloses(): number {
    return this.cutOffs;
  }

  /** Whether any socket has subscribed to anything (saves serializing unwanted events). */
  hasSubscribers(): boolean {
    return this.subscribers.size > 0;
  }

  /** Sends the already serialized notification `message` to every socket whose topics match. */
  publish(eventName: string, message: string): void {
    for (const connection of this.subscribers) {
      if (topicsMatch(connection.topics, eventName)) this.send(connection, message);
    }
  }

  /** Closes every socket (code 1001) for a shutdown. */
  closeAll(): void {
    for (const connection of [...this.connections]) connection.socket?.end(GOING_AWAY, SHUTDOWN_REASON);
  }

  /** `subscribe` for `connection`: adds topics; the answer lists the topics asked for. */
  subscribe(connection: WsConnection, topics: string[]): { subscribed: string[] } {
    let added = 0;
    for (const topic of topics) if (!connection.topics.has(topic)) added += 1;
    if (connection.topics.size + added > MAX_TOPICS_PER_SOCKET) {
      throw new InvalidParamsError(`params.topics: a socket may hold at most ${MAX_TOPICS_PER_SOCKET} topics.`);
    }
    for (const topic of topics) connection.topics.add(topic);
    if (connection.socket !== undefined) this.subscribers.add(connection);
    return { subscribed: topics };
  }

  /** `unsubscribe` for `connection`: the answer lists the topics that were subscribed. */
  unsubscribe(connection: WsConnection, topics: string[]): { unsubscribed: string[] } {
    const removed = topics.filter((topic) => connection.topics.delete(topic));
    if (connection.topics.size === 0) this.subscribers.delete(connection);
    return { unsubscribed: removed };
  }

  private upgrade(res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void {
    const origin = req.getHeader('origin');
    // Browsers send Origin; other clients usually do not and are not subject to CORS anyway.
    if (origin !== '' && this.allowedOrigins !== undefined && !this.allowedOrigins.has(origin)) {
      res.writeStatus('403 Forbidden').writeHeader('Content-Type', 'text/plain').end('Origin not allowed.', true);
      return;
    }
    res.upgrade<ConnectionData>(
      { connection: new WsConnection(this) },
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      context,
    );
  }

  private answer(connection: WsConnection, text: string): void {
    let answer: MaybePromise<RpcAnswer | undefined>;
    try {
      answer = this.dispatcher.dispatchAnswer(text, connection);
    } catch (error) {
      answer = this.dispatcherFailure(error);
    }
    if (!(answer instanceof Promise)) {
      // Still inside uWS's message callback, which has corked the socket already.
      if (answer !== undefined) this.send(connection, answer, true);
      return;
    }
    answer.then(
      (later) => {
        if (later !== undefined) this.send(connection, later);
      },
      (error: unknown) => this.send(connection, this.dispatcherFailure(error)),
    );
  }

  /** The dispatcher answers every failure itself; this is a last line of defence. */
  private dispatcherFailure(error: unknown): string {
    this.logger.error({ err: error }, 'RPC dispatcher failed on a WebSocket message');
    return errorResponse('null', INTERNAL_ERROR, 'Internal error.');
  }

  /**
   * Sends one text frame, unless the client has stopped reading: a socket whose backlog already
   * exceeds the limit is closed instead (so a backlog never exceeds the limit plus one message).
   * `corked`: the caller runs inside a uWS callback of this socket, which uWS corks itself, so
   * the frame is sent as it is (one native call instead of a cork around it, as the uWS docs
   * advise); other callers (answers that came later, events) cork it here.
   */
  private send(connection: WsConnection, message: RpcAnswer, corked = false): void {
    const socket = connection.socket;
    if (socket === undefined) return; // closed while its request was running
    if (socket.getBufferedAmount() > this.options.maxBufferedBytes) {
      this.cutOff(socket);
      return;
    }
    this.corkSocket = socket;
    // Bytes of a reused buffer: made here, right before uWS copies them.
    this.corkMessage = answerPayload(message);
    this.corkStatus = 0;
    try {
      if (corked) this.sendCorked();
      else socket.cork(this.sendCorked);
    } catch (error) {
      this.logger.warn({ err: error }, 'RPC message could not be sent on a WebSocket');
    } finally {
      this.corkSocket = undefined;
      this.corkMessage = '';
    }
    if (this.corkStatus === SEND_DROPPED) this.cutOff(socket);
  }

  private cutOff(socket: WebSocket<ConnectionData>): void {
    this.cutOffs += 1;
    this.logger.debug({ bufferedBytes: socket.getBufferedAmount() }, 'Closing a WebSocket that does not read');
    // `end` runs the close handler at once, which forgets the connection.
    socket.end(POLICY_VIOLATION, BACKPRESSURE_REASON);
  }
}
