/**
 * The legacy forging HTTP API on uWebSockets.js (cli_migration.md §6.2): GET /api/node/status,
 * GET and PUT /api/node/status/forging, answering in Core 2.x's envelope and status codes.
 *
 * Order of checks, as Core 2.x's pipeline: general API gate (403 "API access denied") → body size
 * (413) and JSON (400) → parameter validation (400) → forging whitelist (403 "Access Denied") →
 * action (200, or 404 for any refused toggle). So a malformed body from a non-whitelisted caller
 * gets 400, not 403. Local callers (127.0.0.1, ::1) pass both gates. Request bodies are never
 * logged: they carry the password.
 */
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { BasaltError } from '../errors.js';
import type { Logger } from '../logger.js';
import { clientAddress } from './client-address.js';
import { isLocalAddress, type IpWhitelist } from './ip-whitelist.js';
import { ForgingToggleError } from './legacy-api-error.js';
import type { ForgingStatus } from './legacy-forging.js';
import type { NodeStatusJSON } from './node-status.js';
import { INVALID_JSON_BODY, validateForgingQuery, validateToggleBody } from './request-validation.js';
import {
  API_ACCESS_DENIED,
  BODY_TOO_LARGE,
  envelope,
  FORGING_ACCESS_DENIED,
  MAX_BODY_BYTES,
  methodNotAllowed,
  PATH_NOT_FOUND,
  UNEXPECTED_ERROR,
} from './responses.js';

export const STATUS_PATH = '/api/node/status';
export const FORGING_PATH = '/api/node/status/forging';

export interface LegacyApiAccess {
  readonly apiPublic: boolean;
  readonly apiWhitelist: IpWhitelist;
  readonly forgingWhitelist: IpWhitelist;
}

/** What the endpoints act on (LegacyForging and the node status in a node; anything in a test). */
export interface LegacyApiHandlers {
  nodeStatus(): NodeStatusJSON;
  forgingStatus(publicKey?: string): ForgingStatus[];
  toggle(publicKey: string, password: string, forging: boolean): Promise<{ publicKey: string; forging: boolean }>;
}

export interface LegacyApiServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** legacyApi.trustedProxyHeader; undefined (the default) ignores every forwarding header. */
  readonly trustedProxyHeader?: string;
  readonly access: LegacyApiAccess;
  readonly handlers: LegacyApiHandlers;
  readonly logger: Logger;
}

type ListenWithOptions = (host: string, port: number, options: number, callback: (socket: us_listen_socket | false) => void) => TemplatedApp;
type ClosableApp = TemplatedApp & { close?: () => void };
const LISTEN_EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT?: number }).LIBUS_LISTEN_EXCLUSIVE_PORT ?? 1;

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  400: '400 Bad Request',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  500: '500 Internal Server Error',
};

function writeJson(res: HttpResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  res.writeStatus(STATUS_TEXT[status] ?? `${status}`).writeHeader('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(extraHeaders)) res.writeHeader(name, value);
  res.end(JSON.stringify(body));
}

/** A PUT being read or answered; uWS forbids touching `res` after the client left. */
interface PendingRequest {
  readonly res: HttpResponse;
  readonly ip: string;
  aborted: boolean;
  chunks: Buffer[];
  received: number;
  done: boolean;
}

export class LegacyApiServer {
  private app: ClosableApp | undefined;
  private listenSocket: us_listen_socket | undefined;
  private boundPort = 0;

  constructor(private readonly options: LegacyApiServerOptions) {}

  get port(): number {
    return this.boundPort;
  }

  /** Listens on host:port; rejects when the address is taken or not available. */
  start(): Promise<void> {
    const app: ClosableApp = uWS.App();
    this.app = app;
    app.get(STATUS_PATH, (res, req) => this.getStatus(res, req));
    app.get(FORGING_PATH, (res, req) => this.getForging(res, req));
    app.put(FORGING_PATH, (res, req) => this.putForging(res, req));
    app.any(STATUS_PATH, res => writeJson(res, 405, methodNotAllowed('GET'), { Allow: 'GET' }));
    app.any(FORGING_PATH, res => writeJson(res, 405, methodNotAllowed('GET, PUT'), { Allow: 'GET, PUT' }));
    app.any('/*', res => writeJson(res, 404, PATH_NOT_FOUND));
    const { host, port } = this.options;
    return new Promise((resolve, reject) => {
      (app.listen as unknown as ListenWithOptions)(host, port, LISTEN_EXCLUSIVE_PORT, socket => {
        if (socket === false) {
          reject(new BasaltError('ERR_LEGACY_API_LISTEN', `The legacy API cannot listen on ${host}:${port}: the port is in use or the address is not available here.`));
          return;
        }
        this.listenSocket = socket;
        this.boundPort = uWS.us_socket_local_port(socket as unknown as uWS.us_socket);
        resolve();
      });
    });
  }

  /** Stops listening and closes open connections. Idempotent. */
  stop(): void {
    if (this.listenSocket !== undefined) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = undefined;
    this.app?.close?.();
    this.app = undefined;
  }

  /** The caller's address; must run before the handler returns (uWS frees `req` afterwards). */
  private callerOf(res: HttpResponse, req: HttpRequest): string {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString('utf8');
    const header = this.options.trustedProxyHeader;
    return clientAddress(peer, header === undefined ? undefined : req.getHeader(header.toLowerCase()));
  }

  /** General API gate (§6.3): `access.public`, or the API whitelist. */
  private apiAllowed(ip: string): boolean {
    const { apiPublic, apiWhitelist } = this.options.access;
    return apiPublic || isLocalAddress(ip) || apiWhitelist.allows(ip);
  }

  /** Forging gate (§6.3): applied to both forging endpoints whatever `access.public` says. */
  private forgingAllowed(ip: string): boolean {
    return isLocalAddress(ip) || this.options.access.forgingWhitelist.allows(ip);
  }

  private getStatus(res: HttpResponse, req: HttpRequest): void {
    const ip = this.callerOf(res, req);
    if (!this.apiAllowed(ip)) return writeJson(res, 403, API_ACCESS_DENIED);
    this.answerSafely(res, () => ({ status: 200, body: envelope(this.options.handlers.nodeStatus()) }));
  }

  private getForging(res: HttpResponse, req: HttpRequest): void {
    const ip = this.callerOf(res, req);
    if (!this.apiAllowed(ip)) return writeJson(res, 403, API_ACCESS_DENIED);
    const query = validateForgingQuery(req.getQuery() ?? '');
    if (!query.ok) return writeJson(res, 400, query.error);
    if (!this.forgingAllowed(ip)) return writeJson(res, 403, FORGING_ACCESS_DENIED);
    this.answerSafely(res, () => ({ status: 200, body: envelope(this.options.handlers.forgingStatus(query.value.publicKey)) }));
  }

  private putForging(res: HttpResponse, req: HttpRequest): void {
    const ip = this.callerOf(res, req);
    if (!this.apiAllowed(ip)) return writeJson(res, 403, API_ACCESS_DENIED);
    const length = req.getHeader('content-length');
    if (length !== '' && Number(length) > MAX_BODY_BYTES) {
      // Known to be too large: answer and close instead of reading what we refuse.
      res.cork(() => res.writeStatus(STATUS_TEXT[413] as string).writeHeader('Content-Type', 'application/json').end(JSON.stringify(BODY_TOO_LARGE), true));
      return;
    }
    const pending: PendingRequest = { res, ip, aborted: false, chunks: [], received: 0, done: false };
    res.onAborted(() => {
      pending.aborted = true;
    });
    res.onData((chunk, isLast) => this.receive(pending, chunk, isLast));
  }

  private receive(pending: PendingRequest, chunk: ArrayBuffer, isLast: boolean): void {
    if (pending.done || pending.aborted) return;
    pending.received += chunk.byteLength;
    if (pending.received > MAX_BODY_BYTES) {
      // A chunked body has no Content-Length: the limit is found while reading.
      pending.done = true;
      pending.chunks = [];
      const { res } = pending;
      res.cork(() => res.writeStatus(STATUS_TEXT[413] as string).writeHeader('Content-Type', 'application/json').end(JSON.stringify(BODY_TOO_LARGE), true));
      return;
    }
    // uWS reuses a chunk's memory after this callback: copy it.
    pending.chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (!isLast) return;
    pending.done = true;
    const text = Buffer.concat(pending.chunks).toString('utf8');
    pending.chunks = [];
    void this.toggle(pending, text);
  }

  private async toggle(pending: PendingRequest, text: string): Promise<void> {
    let answer: { status: number; body: unknown };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return this.finish(pending, { status: 400, body: INVALID_JSON_BODY });
    }
    const request = validateToggleBody(body);
    if (!request.ok) return this.finish(pending, { status: 400, body: request.error });
    if (!this.forgingAllowed(pending.ip)) return this.finish(pending, { status: 403, body: FORGING_ACCESS_DENIED });
    try {
      const { publicKey, password, forging } = request.value;
      const result = await this.options.handlers.toggle(publicKey, password, forging);
      answer = { status: 200, body: envelope([result]) };
    } catch (error) {
      answer = error instanceof ForgingToggleError ? { status: 404, body: { message: error.message } } : this.unexpected(error);
    }
    this.finish(pending, answer);
  }

  private finish(pending: PendingRequest, answer: { status: number; body: unknown }): void {
    if (pending.aborted) return;
    const { res } = pending;
    res.cork(() => writeJson(res, answer.status, answer.body));
  }

  private answerSafely(res: HttpResponse, answer: () => { status: number; body: unknown }): void {
    let result: { status: number; body: unknown };
    try {
      result = answer();
    } catch (error) {
      result = this.unexpected(error);
    }
    writeJson(res, result.status, result.body);
  }

  private unexpected(error: unknown): { status: number; body: unknown } {
    // The error's message only: a stack or cause could carry request data.
    this.options.logger.error({ code: (error as BasaltError).code, message: (error as Error).message }, 'Legacy API request failed');
    return { status: 500, body: UNEXPECTED_ERROR };
  }
}
