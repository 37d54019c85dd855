/**
 * The HTTP transport: `POST /rpc` on uWebSockets.js (lisk-sdk controller/http/http_server.ts).
 * JSON-RPC errors travel with status 200; 405 answers other methods on /rpc except OPTIONS, which
 * is a CORS preflight (lisk-sdk has none); every answer carries the CORS origin header; a body
 * above `maxBodyBytes` gets 413 and the connection is closed. A client may disconnect at any
 * moment: uWS then runs onAborted and the response must not be touched.
 *
 * An oversized body of moderate size is read to its end and dropped before the 413 is sent: a
 * client still writing its body when the server closes gets a broken pipe instead of the answer
 * (HTTP/1.1 servers call this a lingering close). Past `DRAIN_FACTOR` times the limit the server
 * stops reading and closes at once, so a huge upload costs no more than that.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { Logger } from '../logger.js';
import type { MaybePromise, TransportDispatcher } from './dispatcher.js';
import { INTERNAL_ERROR } from './error-codes.js';
import { answerPayload } from './answer-bytes.js';
import { requestText } from './request-text.js';
import { errorResponse, type RpcAnswer } from './response.js';

export const HTTP_PATH = '/rpc';

export interface HttpTransportOptions {
  /** Largest request body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** `rpc.accessControlAllowOrigin`, sent as Access-Control-Allow-Origin on every answer. */
  readonly accessControlAllowOrigin: string;
}

const ALLOWED_METHODS = 'POST, OPTIONS';
// The status and headers of every answer, as bytes: uWS converts a string argument to UTF-8 on
// each call, bytes it takes as they are (same bytes on the wire).
const STATUS_OK = Buffer.from('200 OK');
const CONTENT_TYPE = Buffer.from('Content-Type');
const APPLICATION_JSON = Buffer.from('application/json');
const ALLOW_ORIGIN = Buffer.from('Access-Control-Allow-Origin');
const PREFLIGHT_MAX_AGE_SECONDS = '86400';
/** How many times `maxBodyBytes` an oversized body may be read (and dropped) before its 413. */
const DRAIN_FACTOR = 4;

/** One POST whose body is being read or whose answer is being computed. */
class PendingPost {
  aborted = false;
  finished = false;
  received = 0;
  /** The body is over the limit: its remaining chunks are dropped until the 413 is sent. */
  draining = false;
  /** Copies of the chunks before the last (uWS reuses a chunk's memory after its callback). */
  chunks: Buffer[] | undefined;

  constructor(readonly res: HttpResponse) {}
}

export class HttpTransport {
  /** `accessControlAllowOrigin` as bytes, for the answers' header. */
  private readonly origin: Buffer;

  constructor(
    private readonly dispatcher: TransportDispatcher,
    private readonly options: HttpTransportOptions,
    private readonly logger: Logger,
  ) {
    this.origin = Buffer.from(options.accessControlAllowOrigin);
  }

  /** Registers the `/rpc` routes on `app` (the server adds the catch-all 404 after every transport). */
  attach(app: TemplatedApp): void {
    app.post(HTTP_PATH, (res, req) => this.post(res, req));
    app.options(HTTP_PATH, (res) => this.preflight(res));
    app.any(HTTP_PATH, (res, req) => this.methodNotAllowed(res, req));
  }

  private post(res: HttpResponse, req: HttpRequest): void {
    const header = req.getHeader('content-length');
    const contentLength = header === '' ? -1 : Number(header);
    if (contentLength > this.options.maxBodyBytes * DRAIN_FACTOR) {
      // Far too large: answer at once and close rather than read a body we refuse.
      this.writeTooLarge(res);
      return;
    }
    const pending = new PendingPost(res);
    // Known to be too large, yet small enough to read to its end before the 413.
    pending.draining = contentLength > this.options.maxBodyBytes;
    res.onAborted(() => {
      pending.aborted = true;
    });
    res.onData((chunk, isLast) => this.receive(pending, chunk, isLast));
  }

  private receive(pending: PendingPost, chunk: ArrayBuffer, isLast: boolean): void {
    if (pending.finished || pending.aborted) return;
    const size = chunk.byteLength;
    pending.received += size;
    // Chunked bodies have no Content-Length: the limit is found while reading.
    if (pending.received > this.options.maxBodyBytes) pending.draining = true;
    if (pending.draining) {
      pending.chunks = undefined;
      if (isLast || pending.received > this.options.maxBodyBytes * DRAIN_FACTOR) {
        pending.finished = true;
        this.writeTooLarge(pending.res);
      }
      return;
    }
    if (!isLast) {
      (pending.chunks ??= []).push(Buffer.from(new Uint8Array(chunk)));
      return;
    }
    pending.finished = true;
    const chunks = pending.chunks;
    pending.chunks = undefined;
    // Decode now: the last chunk's memory is only valid during this callback.
    const text =
      chunks === undefined
        ? requestText(chunk) // the whole body in one chunk: the usual case, no copy
        : Buffer.concat([...chunks, Buffer.from(chunk, 0, size)], pending.received).toString('utf8');
    this.answer(pending, text);
  }

  private answer(pending: PendingPost, text: string): void {
    let answer: MaybePromise<RpcAnswer | undefined>;
    try {
      answer = this.dispatcher.dispatchAnswer(text);
    } catch (error) {
      answer = this.dispatcherFailure(error);
    }
    // Still inside uWS's onData callback, which corks the response for us.
    if (!(answer instanceof Promise)) this.writeAnswer(pending.res, answer);
    else void this.answerLater(pending, answer);
  }

  private async answerLater(pending: PendingPost, later: Promise<RpcAnswer | undefined>): Promise<void> {
    let answer: RpcAnswer | undefined;
    try {
      answer = await later;
    } catch (error) {
      answer = this.dispatcherFailure(error);
    }
    // The client left (or the server stopped) meanwhile: the response must not be touched.
    if (pending.aborted) return;
    const res = pending.res;
    try {
      res.cork(() => this.writeAnswer(res, answer));
    } catch (error) {
      this.logger.warn({ err: error }, 'RPC answer could not be written to an HTTP response');
    }
  }

  private writeAnswer(res: HttpResponse, answer: RpcAnswer | undefined): void {
    const origin = this.origin;
    if (answer === undefined) {
      // Notifications only: JSON-RPC has nothing to say, HTTP says "no content".
      res.writeStatus('204 No Content').writeHeader('Access-Control-Allow-Origin', origin).endWithoutBody();
      return;
    }
    res.writeStatus(STATUS_OK).writeHeader(CONTENT_TYPE, APPLICATION_JSON).writeHeader(ALLOW_ORIGIN, origin).end(answerPayload(answer));
  }

  /** The dispatcher answers every failure itself; this is a last line of defence. */
  private dispatcherFailure(error: unknown): string {
    this.logger.error({ err: error }, 'RPC dispatcher failed on an HTTP request');
    return errorResponse('null', INTERNAL_ERROR, 'Internal error.');
  }

  private preflight(res: HttpResponse): void {
    res
      .writeStatus('204 No Content')
      .writeHeader('Access-Control-Allow-Origin', this.options.accessControlAllowOrigin)
      .writeHeader('Access-Control-Allow-Methods', ALLOWED_METHODS)
      .writeHeader('Access-Control-Allow-Headers', 'Content-Type')
      .writeHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS)
      .endWithoutBody();
  }

  private methodNotAllowed(res: HttpResponse, req: HttpRequest): void {
    const method = req
      .getCaseSensitiveMethod()
      .replace(/[^A-Za-z-]/g, '')
      .slice(0, 16);
    res
      .writeStatus('405 Method Not Allowed')
      .writeHeader('Allow', ALLOWED_METHODS)
      .writeHeader('Content-Type', 'text/plain')
      .writeHeader('Access-Control-Allow-Origin', this.options.accessControlAllowOrigin)
      .end(`${method} is not allowed for the request.`);
  }

  private writeTooLarge(res: HttpResponse): void {
    res.cork(() => {
      res
        .writeStatus('413 Payload Too Large')
        .writeHeader('Content-Type', 'text/plain')
        .writeHeader('Access-Control-Allow-Origin', this.options.accessControlAllowOrigin)
        .end(`The request body exceeds the limit of ${this.options.maxBodyBytes} bytes.`, true);
    });
  }
}

/** The catch-all answer for paths no transport serves (also used when only WS is enabled). */
export function writeNotFound(res: HttpResponse, accessControlAllowOrigin: string): void {
  res
    .writeStatus('404 Not Found')
    .writeHeader('Content-Type', 'text/plain')
    .writeHeader('Access-Control-Allow-Origin', accessControlAllowOrigin)
    .end('Not found. JSON-RPC is served at POST /rpc and on the WebSocket /rpc-ws.');
}
