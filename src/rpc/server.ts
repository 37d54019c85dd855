/**
 * The RPC server: one uWebSockets.js app serving the transports that `rpc.modes` selects on
 * `rpc.host:rpc.port` (lisk-sdk engine/rpc/rpc_server.ts), all answering through one
 * dispatcher, plus the publication of events to subscribers. `http` and `ws` are built in;
 * other modes (`ipc`) plug in through `addTransport` (transport.ts).
 */
import uWS from 'uWebSockets.js';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { listenExclusive, listenSocketPort } from '../uws-listen.js';
import { BasaltError, InvalidParamsError } from '../errors.js';
import type { Logger } from '../logger.js';
import { RpcDispatcher, type RpcObserver } from './dispatcher.js';
import { primeHotPath } from './hot-path-priming.js';
import { HttpTransport, writeNotFound } from './http-transport.js';
import { READY_PATH, type ReadinessProbe, writeReadiness } from './readiness.js';
import { RawJson } from './raw-json.js';
import type { RpcRegistry } from './registry.js';
import { notificationMessage } from './response.js';
import { resolveRpcServerOptions, type ResolvedRpcServerOptions, type RpcServerOptions } from './server-options.js';
import type { RpcTransport } from './transport.js';
import { WsTransport } from './ws-transport.js';

type ClosableApp = TemplatedApp & { close?: () => void };

type ServerState = 'new' | 'starting' | 'running' | 'stopped';

export class RpcServer {
  /** The dispatcher every transport uses (an added transport answers through `dispatcher.forTransport(mode)`). */
  readonly dispatcher: RpcDispatcher;
  private readonly options: ResolvedRpcServerOptions;
  private readonly logger: Logger;
  private readonly addedTransports: RpcTransport[] = [];
  private readonly startedTransports: RpcTransport[] = [];
  private readonly wsTransport: WsTransport | undefined;
  private app: ClosableApp | undefined;
  private listenSocket: us_listen_socket | undefined;
  private boundPort: number;
  private state: ServerState = 'new';
  private readiness: ReadinessProbe | undefined;
  private stopWarmUps: (() => void) | undefined;

  /** Checks the options (InvalidParamsError names a bad one); nothing is bound until `start`. */
  constructor(
    options: RpcServerOptions,
    private readonly registry: RpcRegistry,
    logger: Logger,
    observer?: RpcObserver,
  ) {
    this.options = resolveRpcServerOptions(options);
    this.logger = logger.child({ component: 'rpc' });
    this.boundPort = this.options.port;
    this.dispatcher = new RpcDispatcher(registry, {
      allowedMethods: this.options.allowedMethods,
      maxBatchSize: this.options.maxBatchSize,
      logger: this.logger,
      observer,
    });
    if (this.options.modes.includes('ws')) {
      this.wsTransport = new WsTransport(
        this.dispatcher.forTransport('ws'),
        {
          maxMessageBytes: this.options.maxBodyBytes,
          maxBufferedBytes: this.options.wsMaxBufferedBytes,
          accessControlAllowOrigin: this.options.accessControlAllowOrigin,
          idleTimeoutSeconds: this.options.wsIdleTimeoutSeconds,
        },
        this.logger,
      );
    }
  }

  /** The bound port once started (the configured one before; useful with port 0). */
  get port(): number {
    return this.boundPort;
  }

  /** Open WebSocket connections. */
  get webSocketCount(): number {
    return this.wsTransport?.connectionCount ?? 0;
  }

  /** WebSockets closed because their client stopped reading, since start. */
  get backpressureCloses(): number {
    return this.wsTransport?.backpressureCloses ?? 0;
  }

  /** Serves `GET /ready` from `probe` (rpc/readiness.ts); call before `start`. */
  serveReadiness(probe: ReadinessProbe): void {
    if (this.state !== 'new') throw new InvalidParamsError('The readiness probe must be set before the server starts.');
    this.readiness = probe;
  }

  /** Adds a transport for another mode (e.g. `ipc`); call before `start`. */
  addTransport(transport: RpcTransport): void {
    if (this.state !== 'new') throw new InvalidParamsError('RPC transports must be added before the server starts.');
    this.addedTransports.push(transport);
  }

  /**
   * Binds host:port for `http`/`ws` and starts the added transports. Resolves when everything
   * listens; rejects (leaving nothing bound) when the port is taken or a transport fails.
   */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new InvalidParamsError('The RPC server can only be started once.');
    this.state = 'starting';
    const { modes } = this.options;
    try {
      if (modes.includes('http') || modes.includes('ws')) {
        const primed = primeHotPath(this.dispatcher, this.registry.primingRequests());
        if (primed.requests > 0) {
          this.logger.debug({ requests: primed.requests, ms: Math.round(primed.ms) }, 'RPC hot path primed before listening');
        }
        await this.listen();
      }
      for (const transport of this.addedTransports) {
        await transport.start();
        this.startedTransports.push(transport);
      }
    } catch (error) {
      await this.release();
      this.state = 'stopped';
      throw error;
    }
    for (const mode of modes) {
      if (mode !== 'http' && mode !== 'ws' && !this.addedTransports.some((transport) => transport.mode === mode)) {
        this.logger.warn({ mode }, 'rpc.modes names a transport that this node does not provide; it is not served');
      }
    }
    this.state = 'running';
    this.logger.info({ modes, host: this.options.host, port: this.boundPort }, 'RPC server listening');
    this.stopWarmUps = this.registry.startWarmUps(
      (error) => this.logger.debug({ err: error }, 'RPC warm-up stopped early'),
      () => this.dispatcher.messagesReceived,
    );
  }

  /** Closes every socket and listener; resolves when all transports have stopped. */
  async stop(): Promise<void> {
    if (this.state === 'stopped' || this.state === 'new') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopped';
    this.stopWarmUps?.();
    this.stopWarmUps = undefined;
    await this.release();
  }

  /**
   * Sends event `eventName` with `data` (JSON-serializable, or RawJson) to every subscriber of
   * every transport as `{"jsonrpc":"2.0","method":<eventName>,"params":<data>}`. The event is
   * serialized once, and not at all when nobody subscribes. Never throws: an event that cannot
   * be serialized is logged and dropped, because the publisher (the engine) must not fail.
   */
  publish(eventName: string, data: unknown): void {
    const ws = this.wsTransport?.hasSubscribers() === true ? this.wsTransport : undefined;
    let othersListen = false;
    for (const transport of this.startedTransports) if (transport.hasSubscribers()) othersListen = true;
    if (ws === undefined && !othersListen) return;

    let params: string | undefined;
    try {
      params = data instanceof RawJson ? data.json : JSON.stringify(data);
    } catch (error) {
      this.logger.error({ event: eventName, err: error }, 'RPC event cannot be serialized; dropped');
      return;
    }
    const message = notificationMessage(eventName, params ?? '{}');
    ws?.publish(eventName, message);
    if (othersListen) {
      for (const transport of this.startedTransports) {
        if (transport.hasSubscribers()) transport.publish(eventName, message);
      }
    }
  }

  private listen(): Promise<void> {
    const app: ClosableApp = uWS.App();
    this.app = app;
    const { modes, host, port, accessControlAllowOrigin } = this.options;
    if (modes.includes('http')) {
      new HttpTransport(
        this.dispatcher.forTransport('http'),
        { maxBodyBytes: this.options.maxBodyBytes, accessControlAllowOrigin },
        this.logger,
      ).attach(app);
    }
    this.wsTransport?.attach(app);
    const probe = this.readiness;
    if (probe !== undefined) app.get(READY_PATH, (res) => writeReadiness(res, probe, accessControlAllowOrigin));
    // Registered last: uWS prefers the exact routes above to this wildcard.
    app.any('/*', (res) => writeNotFound(res, accessControlAllowOrigin));

    return new Promise<void>((resolve, reject) => {
      listenExclusive(app, host, port, (listenSocket) => {
        if (listenSocket === false) {
          reject(
            new BasaltError(
              'ERR_RPC_LISTEN',
              `The RPC server cannot listen on ${host}:${port}: the port is in use or the address is not available here.`,
            ),
          );
          return;
        }
        this.listenSocket = listenSocket;
        this.boundPort = listenSocketPort(listenSocket);
        resolve();
      });
    });
  }

  private async release(): Promise<void> {
    this.wsTransport?.closeAll();
    if (this.listenSocket !== undefined) {
      uWS.us_listen_socket_close(this.listenSocket);
      this.listenSocket = undefined;
    }
    // Also closes idle keep-alive HTTP connections, so the process can exit.
    this.app?.close?.();
    this.app = undefined;
    const transports = this.startedTransports.splice(0).reverse();
    for (const transport of transports) {
      try {
        await transport.stop();
      } catch (error) {
        this.logger.error({ mode: transport.mode, err: error }, 'RPC transport failed to stop');
      }
    }
  }
}
