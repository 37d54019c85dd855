/**
 * The Lisk Core 1.x/2.x forging HTTP API (docs/protocol/legacy-forging-api.md) on uWebSockets.js:
 * `GET /api/node/status`, `GET|PUT /api/node/status/forging`. Order of checks as 2.x's swagger
 * pipe: general API gate (403) → body size (413) → JSON parse and validation (400) → forging
 * whitelist (403) → action (200 / 404). So a malformed body from a non-whitelisted address gets
 * 400, not 403. Answers use 2.x's envelope `{meta, data, links}`.
 *
 * Lisk Core 3.x's `PATCH /api/forging` (its HTTP API plugin) is served beside them with 3.x's
 * order and answers: rate limit (429) → forging whitelist (401 `{"errors":{"message":"Access
 * Denied"}}`) → body size (413) → JSON and validation (400 `{"errors":[{message}]}`) → action
 * (200 `{meta:{count:1}, data}`, or 500 with the forger's error as 3.x relayed it). Both toggles
 * are rate limited per client address (rate-limit.ts).
 *
 * The client address is the socket's peer, or, when `trustedProxyHeader` is configured and the
 * peer is a loopback proxy, the last address in that header (the one the proxy appended to
 * X-Forwarded-For). No request body is logged.
 */
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { listenExclusive, listenSocketPort } from '../uws-listen.js';
import { BasaltError } from '../errors.js';
import type { Logger } from '../logger.js';
import { type ForgingService, ToggleError } from './forging-service.js';
import { DEFAULT_RATE_LIMIT, RateLimiter, type RateLimitConfig, TOO_MANY_REQUESTS_MESSAGE } from './rate-limit.js';
import { isValidationFailure, malformedBody, validatePublicKeyQuery, validateToggleBody } from './validation.js';
import { isV3ErrorBody, v3Error, validateUpdateForgingBody } from './validation-v3.js';
import { allowedBy, isLoopback, type Whitelist } from './whitelist.js';

/** A toggle request is about 150 bytes; anything far above it is not one. */
export const MAX_BODY_BYTES = 8 * 1024;

export interface NodeStatusSource {
  readonly height: () => number;
  /** Hex id of the tip block; 2.x's broadhash is derived from the last blocks' ids. */
  readonly tipId: () => string;
  readonly syncing: () => boolean;
  /** Most common height among connected peers, 0 without peers. */
  readonly networkHeight: () => number;
  readonly poolSize: () => number;
  /** Unix ms. */
  readonly now?: () => number;
}

export interface LegacyApiServerOptions {
  readonly host: string;
  readonly port: number;
  readonly service: ForgingService;
  readonly status: NodeStatusSource;
  /** The general API gate: `access.public` opens non-forging endpoints to everyone. */
  readonly apiPublic: boolean;
  readonly apiWhitelist: Whitelist;
  readonly forgingWhitelist: Whitelist;
  /** Lower-case header name whose value is the client address; undefined = the socket's peer. */
  readonly trustedProxyHeader?: string;
  /** Limit of the toggle requests per client address; DEFAULT_RATE_LIMIT when absent. */
  readonly rateLimit?: RateLimitConfig;
  readonly logger: Logger;
}

type ClosableApp = TemplatedApp & { close?: () => void };

/** Lisk epoch (2.x secondsSinceEpoch): 2016-05-24T17:00:00Z. */
const LISK_EPOCH_MS = Date.UTC(2016, 4, 24, 17, 0, 0);

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
};

export const ACCESS_DENIED = { message: 'Access Denied' };
export const API_ACCESS_DENIED = { message: 'API access denied', errors: ['API access blocked.'] };
export const UNEXPECTED_ERROR = { message: 'An unexpected error occurred while handling this request' };
/** 3.x's whitelist refusal: its error handler spread the error object, so `errors` is no array here. */
export const V3_ACCESS_DENIED = { errors: { message: 'Access Denied' } };

/** 2.x response formatter for array results. */
const envelope = (data: unknown): unknown => ({ meta: {}, data, links: {} });

interface Exchange {
  readonly res: HttpResponse;
  aborted: boolean;
}

export class LegacyApiServer {
  private app: ClosableApp | undefined;
  private listenSocket: us_listen_socket | undefined;
  private boundPort = 0;
  private readonly limiter: RateLimiter;

  constructor(private readonly options: LegacyApiServerOptions) {
    this.limiter = new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  }

  get port(): number {
    return this.boundPort;
  }

  start(): Promise<void> {
    const app: ClosableApp = uWS.App();
    this.app = app;
    app.get('/api/node/status', (res, req) => this.nodeStatus(res, req));
    app.get('/api/node/status/forging', (res, req) => this.forgingStatus(res, req));
    app.put('/api/node/status/forging', (res, req) => this.toggle(res, req));
    app.patch('/api/forging', (res, req) => this.updateForging(res, req));
    app.any('/*', (res) => this.write({ res, aborted: false }, 404, { message: 'Route not found' }));
    const { host, port } = this.options;
    return new Promise((resolve, reject) => {
      listenExclusive(app, host, port, (socket) => {
        if (socket === false) {
          reject(
            new BasaltError(
              'ERR_LEGACY_API_LISTEN',
              `The legacy forging API cannot listen on ${host}:${port}: the port is in use or the address is not available here.`,
            ),
          );
          return;
        }
        this.listenSocket = socket;
        this.boundPort = listenSocketPort(socket);
        resolve();
      });
    });
  }

  stop(): void {
    if (this.listenSocket !== undefined) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
    this.app?.close?.();
    this.app = undefined;
  }

  /** Must run synchronously in the route handler: uWS invalidates `req` afterwards. */
  private clientAddress(res: HttpResponse, req: HttpRequest): string {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    const header = this.options.trustedProxyHeader;
    // Only a proxy on this machine may name the client: a remote caller's header is ignored, or
    // anyone could claim a whitelisted address. The proxy appends the address it saw, so the
    // last entry is the one it vouches for; earlier entries come from the client.
    if (header === undefined || !isLoopback(peer)) return peer;
    const last = req.getHeader(header).split(',').at(-1)?.trim();
    return last ? last : peer;
  }

  /** General API gate: forging endpoints pass it too, unless public. */
  private apiAllowed(address: string): boolean {
    return this.options.apiPublic || allowedBy(this.options.apiWhitelist, address);
  }

  private nodeStatus(res: HttpResponse, req: HttpRequest): void {
    const exchange = { res, aborted: false };
    if (!this.apiAllowed(this.clientAddress(res, req))) {
      this.write(exchange, 403, API_ACCESS_DENIED);
      return;
    }
    const { status } = this.options;
    const now = status.now?.() ?? Date.now();
    const height = status.height();
    const poolSize = status.poolSize();
    this.write(exchange, 200, {
      meta: {},
      data: {
        broadhash: status.tipId(),
        // Standalone or in step with its peers: Basalt has no 2.x broadhash consensus to measure.
        consensus: 100,
        currentTime: now,
        secondsSinceEpoch: Math.floor((now - LISK_EPOCH_MS) / 1000),
        height,
        loaded: true,
        networkHeight: status.networkHeight(),
        syncing: status.syncing(),
        // Only the pool's count is known here; 2.x's per-stage queues do not exist in v4.
        transactions: { ready: poolSize, pending: 0, verified: 0, validated: 0, received: 0, total: poolSize },
      },
      links: {},
    });
  }

  private forgingStatus(res: HttpResponse, req: HttpRequest): void {
    const exchange = { res, aborted: false };
    const address = this.clientAddress(res, req);
    const query = validatePublicKeyQuery(req.getQuery('publicKey') ?? undefined);
    if (!this.apiAllowed(address)) {
      this.write(exchange, 403, API_ACCESS_DENIED);
      return;
    }
    if (isValidationFailure(query)) {
      this.write(exchange, 400, query);
      return;
    }
    if (!allowedBy(this.options.forgingWhitelist, address)) {
      this.write(exchange, 403, ACCESS_DENIED);
      return;
    }
    this.write(exchange, 200, envelope(this.options.service.status(query)));
  }

  /** Counts a toggle request; false (after answering 429) when its client is over the limit. */
  private withinLimit(exchange: Exchange, address: string, tooMany: unknown): boolean {
    const decision = this.limiter.take(address);
    if (decision.allowed) return true;
    this.write(exchange, 429, tooMany, { 'Retry-After': String(decision.retryAfterSeconds) });
    return false;
  }

  private toggle(res: HttpResponse, req: HttpRequest): void {
    const exchange: Exchange = { res, aborted: false };
    const address = this.clientAddress(res, req);
    if (!this.apiAllowed(address)) {
      this.write(exchange, 403, API_ACCESS_DENIED);
      return;
    }
    if (!this.withinLimit(exchange, address, { message: TOO_MANY_REQUESTS_MESSAGE })) return;
    this.readBody(exchange, req, { message: 'Request body too large' }, (text) => void this.answerToggle(exchange, address, text));
  }

  private updateForging(res: HttpResponse, req: HttpRequest): void {
    const exchange: Exchange = { res, aborted: false };
    const address = this.clientAddress(res, req);
    if (!this.withinLimit(exchange, address, v3Error(TOO_MANY_REQUESTS_MESSAGE))) return;
    if (!allowedBy(this.options.forgingWhitelist, address)) {
      this.write(exchange, 401, V3_ACCESS_DENIED);
      return;
    }
    this.readBody(exchange, req, v3Error('request entity too large'), (text) => void this.answerUpdateForging(exchange, text));
  }

  /**
   * Reads the whole body (at most MAX_BODY_BYTES, else 413 `tooLarge`) and hands it to `then`.
   * Must be called synchronously in the route handler, as `req` is read here.
   */
  private readBody(exchange: Exchange, req: HttpRequest, tooLarge: unknown, then: (text: string) => void): void {
    const { res } = exchange;
    const lengthHeader = req.getHeader('content-length');
    if (lengthHeader !== '' && Number(lengthHeader) > MAX_BODY_BYTES) {
      this.write(exchange, 413, tooLarge);
      return;
    }
    res.onAborted(() => {
      exchange.aborted = true;
    });
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    res.onData((chunk, isLast) => {
      if (done) return;
      received += chunk.byteLength;
      if (received > MAX_BODY_BYTES) {
        done = true;
        return this.write(exchange, 413, tooLarge);
      }
      // uWS reuses the chunk's memory after this callback: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (!isLast) return;
      done = true;
      then(Buffer.concat(chunks).toString('utf8'));
    });
  }

  private async answerUpdateForging(exchange: Exchange, text: string): Promise<void> {
    let body: unknown;
    // 3.x's JSON body parser left a missing body as `{}`, so schema errors name the fields.
    if (text.trim() === '') body = {};
    else {
      try {
        body = JSON.parse(text);
      } catch {
        return this.write(exchange, 400, v3Error('Request body is not valid JSON'));
      }
    }
    const request = validateUpdateForgingBody(body);
    if (isV3ErrorBody(request)) return this.write(exchange, 400, request);
    try {
      const result = await this.options.service.updateForgingStatus(request);
      const { height, maxHeightPreviouslyForged, maxHeightPrevoted } = request;
      this.write(exchange, 200, { meta: { count: 1 }, data: { ...result, height, maxHeightPreviouslyForged, maxHeightPrevoted } });
    } catch (error) {
      if (error instanceof ToggleError) {
        // 3.x relayed the forger's error through its in-process action bus as a JSON-RPC error.
        const { message } = error;
        const response = { jsonrpc: '2.0', id: null, error: { message: 'Internal error', code: -32603, data: message } };
        this.write(exchange, 500, { errors: [{ message, response }] });
        return;
      }
      this.options.logger.error({ error: (error as Error).name }, 'Legacy API: forging update failed');
      this.write(exchange, 500, v3Error(UNEXPECTED_ERROR.message));
    }
  }

  private async answerToggle(exchange: Exchange, address: string, text: string): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return this.write(exchange, 400, malformedBody());
    }
    const request = validateToggleBody(body);
    if (isValidationFailure(request)) {
      this.write(exchange, 400, request);
      return;
    }
    if (!allowedBy(this.options.forgingWhitelist, address)) {
      this.write(exchange, 403, ACCESS_DENIED);
      return;
    }
    try {
      const entry = await this.options.service.toggle(request.publicKey, request.password, request.forging);
      this.write(exchange, 200, envelope([entry]));
    } catch (error) {
      if (error instanceof ToggleError) {
        this.write(exchange, 404, { message: error.message });
        return;
      }
      // The error may come from decryption or key derivation: log its kind, not its text.
      this.options.logger.error({ error: (error as Error).name }, 'Legacy API: forging toggle failed');
      this.write(exchange, 500, UNEXPECTED_ERROR);
    }
  }

  private write(exchange: Exchange, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (exchange.aborted) return;
    const { res } = exchange;
    try {
      res.cork(() => {
        res.writeStatus(STATUS_TEXT[status] ?? `${status}`).writeHeader('Content-Type', 'application/json');
        for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
        res.end(JSON.stringify(body));
      });
    } catch (error) {
      this.options.logger.warn({ error: (error as Error).name }, 'Legacy API: answer could not be written');
    }
  }
}
