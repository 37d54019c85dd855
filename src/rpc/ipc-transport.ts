/**
 * The IPC transport (mode `ipc`; lisk-sdk controller/ipc/ipc_server.ts): Lisk's ZeroMQ
 * sockets under `<dataPath>/tmp/sockets`, so that `@liskhq/lisk-api-client`'s
 * `createIPCClient(dataPath)` and Lisk's tools talk to Basalt as to a Lisk node.
 *
 * - `engine.external.rpc.ipc`, ROUTER: a request arrives as `[identity, requestJson]` (a DEALER
 *   client) or `[identity, "", requestJson]` (a REQ client); the answer goes back behind the same
 *   routing frames. Requests run concurrently and are answered in completion order; a message
 *   holding only notifications gets no answer (the api-client always sends an id).
 * - `external.pub.ipc`, PUB: each event is two frames `[eventName, notificationJson]`; clients
 *   filter on the first frame with ZeroMQ's prefix subscriptions.
 * - `external.sub.ipc`, SUB: bound and subscribed to everything like Lisk's, never read.
 *
 * Nothing a client sends or fails to read can crash the node: read and write failures are logged.
 * Sends never wait: the ROUTER and PUB sockets drop messages for a peer whose queue is full
 * (ZeroMQ's high-water mark) instead of buffering without bound.
 */
import { Publisher, Router, Subscriber } from 'zeromq';
import type { Socket } from 'zeromq';
import { BasaltError, InvalidParamsError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { MaybePromise, TransportDispatcher } from './dispatcher.js';
import { INTERNAL_ERROR, INVALID_REQUEST } from './error-codes.js';
import {
  checkSocketPathLength,
  clearStaleSocketFile,
  ensureSocketDir,
  fileIdentity,
  ipcEndpoint,
  ipcSocketDir,
  ipcSocketPaths,
  removeOwnSocketFile,
  type FileIdentity,
  type IpcSocketPaths,
  type IpcSocketRole,
} from './ipc-socket-files.js';
import { errorResponse } from './response.js';
import { RPC_DEFAULTS } from './server-options.js';
import type { RpcTransport } from './transport.js';

export interface IpcTransportOptions {
  /** The node's data path; a leading `~` is the home directory. Sockets go to `<dataPath>/tmp/sockets`. */
  readonly dataPath: string;
  /**
   * Largest request frame accepted (ZMQ_MAXMSGSIZE); ZeroMQ disconnects a peer that sends a
   * larger one. `RPC_DEFAULTS.maxBodyBytes` (1 MiB) by default, like an HTTP body.
   */
  readonly maxMessageBytes?: number;
  /**
   * Requests being answered at once. Past it the transport stops reading, so further requests
   * wait in ZeroMQ's queues and a flooding client is slowed down instead of filling memory.
   * 1024 by default.
   */
  readonly maxConcurrentRequests?: number;
}

export const IPC_DEFAULTS = {
  maxMessageBytes: RPC_DEFAULTS.maxBodyBytes,
  maxConcurrentRequests: 1024,
} as const;

/** The routing frames of a request and its body, as `splitRequestFrames` reads them. */
export interface IpcRequestFrames {
  /** Frames to put in front of the answer: the peer's identity, plus the empty delimiter of a REQ client. */
  readonly envelope: Buffer[];
  /** The request text, or undefined when the body is not exactly one frame. */
  readonly body: Buffer | undefined;
}

/** The answer to a request whose body is not one frame. */
export const MULTI_FRAME_REQUEST_RESPONSE = errorResponse(
  'null',
  INVALID_REQUEST,
  'Invalid request: an IPC request must be a single frame holding the JSON text.',
);
const INTERNAL_ERROR_RESPONSE = errorResponse('null', INTERNAL_ERROR, 'Internal error.');

// Pending answers may still leave for this long after the sockets close; never hang the exit.
const LINGER_MS = 100;
// The SUB socket is never read: keep what a stray publisher could make it queue small.
const UNUSED_SUB_QUEUE = 16;
// Pause after an unexpected read failure, so that a persistent one cannot spin the CPU.
const READ_RETRY_MS = 50;

type TransportState = 'new' | 'starting' | 'running' | 'stopped';

/**
 * Splits a message read from the ROUTER socket. Frame 0 is the identity
 * ZeroMQ prepended. A DEALER client (the api-client) sends one body frame; a REQ client puts an
 * empty delimiter frame before it, which must be echoed. Returns undefined when there is no
 * frame after the identity.
 */
export function splitRequestFrames(frames: readonly Buffer[]): IpcRequestFrames | undefined {
  if (frames.length < 2) return undefined;
  const identity = frames[0] as Buffer;
  if (frames.length === 2) return { envelope: [identity], body: frames[1] };
  // A delimiter is an empty frame with a body after it; an empty last frame is an (empty) body.
  const delimiter = frames[1] as Buffer;
  if (delimiter.length === 0) {
    return { envelope: [identity, delimiter], body: frames.length === 3 ? frames[2] : undefined };
  }
  return { envelope: [identity], body: undefined };
}

/** The frames of an answer: the request's routing frames, then the answer text. */
export function answerFrames(envelope: readonly Buffer[], answer: string): (Buffer | string)[] {
  return envelope.length === 1 ? [envelope[0] as Buffer, answer] : [...envelope, answer];
}

/** The two frames of an event on the PUB socket: the topic clients filter on, then the notification. */
export function eventFrames(eventName: string, notification: string): [string, string] {
  return [eventName, notification];
}

/** The `ipc` transport; add it to the RpcServer with `addTransport` before `start`. */
export class IpcTransport implements RpcTransport {
  readonly mode = 'ipc';
  /** `<dataPath>/tmp/sockets`, absolute. */
  readonly socketDir: string;
  /** The three socket files. */
  readonly socketPaths: IpcSocketPaths;
  private readonly maxMessageBytes: number;
  private readonly maxConcurrentRequests: number;
  private readonly logger: Logger;
  private state: TransportState = 'new';
  private router: Router | undefined;
  private publisher: Publisher | undefined;
  private subscriber: Subscriber | undefined;
  /** Files this transport bound, with their identity, to remove only those at stop. */
  private readonly boundFiles = new Map<string, FileIdentity>();
  private readLoop: Promise<void> | undefined;
  private pendingRequests = 0;
  private slotWaiter: (() => void) | undefined;
  private connectedSubscribers = 0;

  /** Checks the options (InvalidParamsError names a bad one); nothing is touched until `start`. */
  constructor(
    private readonly dispatcher: TransportDispatcher,
    options: IpcTransportOptions,
    logger: Logger,
  ) {
    if (typeof options.dataPath !== 'string' || options.dataPath === '') {
      throw new InvalidParamsError('IPC transport: dataPath must be a non-empty string.');
    }
    this.maxMessageBytes = options.maxMessageBytes ?? IPC_DEFAULTS.maxMessageBytes;
    this.maxConcurrentRequests = options.maxConcurrentRequests ?? IPC_DEFAULTS.maxConcurrentRequests;
    requirePositiveInteger('maxMessageBytes', this.maxMessageBytes);
    requirePositiveInteger('maxConcurrentRequests', this.maxConcurrentRequests);
    this.socketDir = ipcSocketDir(options.dataPath);
    this.socketPaths = ipcSocketPaths(this.socketDir);
    this.logger = logger.child({ transport: 'ipc' });
  }

  /**
   * Creates the socket directory, removes stale socket files, and binds the three sockets.
   * Rejects with a BasaltError, leaving nothing bound, when a path is too long or not a socket,
   * when another process serves these sockets, or when a bind fails.
   */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new InvalidParamsError('The IPC transport can only be started once.');
    this.state = 'starting';
    try {
      for (const path of Object.values(this.socketPaths)) checkSocketPathLength(path);
      await ensureSocketDir(this.socketDir);
      await Promise.all(Object.values(this.socketPaths).map((path) => clearStaleSocketFile(path)));

      const router = new Router({ linger: LINGER_MS, sendTimeout: 0, maxMessageSize: this.maxMessageBytes });
      this.router = router;
      await this.bind(router, 'rpc');
      const publisher = new Publisher({ linger: LINGER_MS, sendTimeout: 0 });
      this.publisher = publisher;
      this.countSubscribers(publisher);
      await this.bind(publisher, 'pub');
      const subscriber = new Subscriber({
        linger: 0,
        maxMessageSize: this.maxMessageBytes,
        receiveHighWaterMark: UNUSED_SUB_QUEUE,
      });
      this.subscriber = subscriber;
      await this.bind(subscriber, 'sub');
      subscriber.subscribe();

      this.readLoop = this.readRequests(router);
    } catch (error) {
      await this.release();
      this.state = 'stopped';
      throw error;
    }
    this.state = 'running';
    this.logger.info({ socketDir: this.socketDir }, 'RPC IPC sockets bound');
  }

  /** Closes the sockets and removes the socket files it created; answers not yet sent are dropped. */
  async stop(): Promise<void> {
    if (this.state === 'new' || this.state === 'stopped') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopped';
    await this.release();
  }

  /** Whether some client is connected to the PUB socket (only such a client can receive events). */
  hasSubscribers(): boolean {
    return this.state === 'running' && this.connectedSubscribers > 0;
  }

  /** Sends the event as `[eventName, notification]`; ZeroMQ delivers it to clients whose prefix matches. */
  publish(eventName: string, notification: string): void {
    const publisher = this.publisher;
    if (publisher === undefined || publisher.closed) return;
    try {
      publisher.send(eventFrames(eventName, notification)).catch((error: unknown) => this.logPublishFailure(eventName, error));
    } catch (error) {
      this.logPublishFailure(eventName, error);
    }
  }

  private async bind(socket: Socket, role: IpcSocketRole): Promise<void> {
    const path = this.socketPaths[role];
    try {
      await socket.bind(ipcEndpoint(path));
    } catch (error) {
      // ZeroMQ's messages do not name the path.
      const reason = error instanceof Error ? error.message : String(error);
      throw new BasaltError('ERR_RPC_IPC_BIND', `The RPC IPC socket ${ipcEndpoint(path)} cannot be bound: ${reason}.`, {
        cause: error,
      });
    }
    const identity = await fileIdentity(path);
    if (identity !== undefined) this.boundFiles.set(path, identity);
  }

  /**
   * Counts the connections to the PUB socket from ZeroMQ's monitor events, so that the server
   * does not serialize events while no client could receive them. A client's first events may
   * be missed while its connection is being reported; its subscription reaches the PUB socket
   * even later, so ZeroMQ would drop them anyway (its "slow joiner" window).
   */
  private countSubscribers(publisher: Publisher): void {
    publisher.events.on('accept', () => {
      this.connectedSubscribers += 1;
    });
    publisher.events.on('disconnect', () => {
      if (this.connectedSubscribers > 0) this.connectedSubscribers -= 1;
    });
  }

  /** Reads requests until the ROUTER socket closes; never rejects. */
  private async readRequests(router: Router): Promise<void> {
    for (;;) {
      if (this.pendingRequests >= this.maxConcurrentRequests) {
        await new Promise<void>((resolve) => {
          this.slotWaiter = resolve;
        });
      }
      if (router.closed) return;
      let frames: Buffer[];
      try {
        frames = await router.receive();
      } catch (error) {
        if (router.closed) return;
        this.logger.error({ err: error }, 'RPC IPC request could not be read');
        await new Promise((resolve) => setTimeout(resolve, READ_RETRY_MS));
        continue;
      }
      this.serve(router, frames);
    }
  }

  private serve(router: Router, frames: Buffer[]): void {
    const request = splitRequestFrames(frames);
    if (request === undefined) return;
    if (request.body === undefined) {
      this.send(router, request.envelope, MULTI_FRAME_REQUEST_RESPONSE);
      return;
    }
    let answer: MaybePromise<string | undefined>;
    try {
      answer = this.dispatcher.dispatch(request.body);
    } catch (error) {
      // The dispatcher answers every failure itself; this is a bug, but the client still gets an answer.
      this.logger.error({ err: error }, 'RPC dispatcher failed on an IPC request');
      answer = INTERNAL_ERROR_RESPONSE;
    }
    if (!(answer instanceof Promise)) {
      if (answer !== undefined) this.send(router, request.envelope, answer);
      return;
    }
    this.pendingRequests += 1;
    answer.then(
      (text) => {
        this.requestSettled();
        if (text !== undefined) this.send(router, request.envelope, text);
      },
      (error: unknown) => {
        this.requestSettled();
        this.logger.error({ err: error }, 'RPC dispatcher failed on an IPC request');
        this.send(router, request.envelope, INTERNAL_ERROR_RESPONSE);
      },
    );
  }

  private requestSettled(): void {
    this.pendingRequests -= 1;
    const waiter = this.slotWaiter;
    if (waiter !== undefined && this.pendingRequests < this.maxConcurrentRequests) {
      this.slotWaiter = undefined;
      waiter();
    }
  }

  /**
   * Queues an answer. With `sendTimeout` 0 a send never waits: the ROUTER drops an answer for a
   * peer that is gone or whose queue is full, and a closed socket (after stop) drops it too.
   */
  private send(router: Router, envelope: readonly Buffer[], answer: string): void {
    if (router.closed) return;
    try {
      router.send(answerFrames(envelope, answer)).catch((error: unknown) => this.logSendFailure(error));
    } catch (error) {
      this.logSendFailure(error);
    }
  }

  private logSendFailure(error: unknown): void {
    if (this.router?.closed === true) return;
    this.logger.warn({ err: error }, 'RPC IPC answer could not be sent');
  }

  private logPublishFailure(eventName: string, error: unknown): void {
    if (this.publisher?.closed === true) return;
    this.logger.warn({ event: eventName, err: error }, 'RPC IPC event could not be published');
  }

  /** Closes whatever is open and removes the files this transport bound; never rejects. */
  private async release(): Promise<void> {
    for (const socket of [this.router, this.publisher, this.subscriber]) socket?.close();
    this.connectedSubscribers = 0;
    // Wakes a read loop that waits for a free slot, so that it sees the closed socket and ends.
    const waiter = this.slotWaiter;
    this.slotWaiter = undefined;
    waiter?.();
    await this.readLoop;
    this.readLoop = undefined;
    for (const [path, identity] of this.boundFiles) {
      try {
        await removeOwnSocketFile(path, identity);
      } catch (error) {
        this.logger.warn({ path, err: error }, 'RPC IPC socket file could not be removed');
      }
    }
    this.boundFiles.clear();
  }
}

function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1) {
    throw new InvalidParamsError(`IPC transport: ${name} must be an integer from 1 to ${2 ** 31 - 1}, got ${String(value)}.`);
  }
}
