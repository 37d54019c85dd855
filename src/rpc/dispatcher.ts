/**
 * The JSON-RPC 2.0 dispatcher shared by every transport (lisk-sdk's, with the deliberate
 * differences listed in the README's "JSON-RPC" section): it parses a message, checks the
 * envelope, answers single requests, batches and notifications, looks methods up in the registry,
 * applies access control, validates params, calls the method and maps what it throws to standard
 * error objects. It never throws: every failure becomes an answer (or, for a notification, none).
 */
import { validationErrors } from '../codec/index.js';
import type { Logger } from '../logger.js';
import { MethodAccess } from './access-control.js';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_DISABLED, METHOD_NOT_FOUND, jsonRpcCodeOf } from './error-codes.js';
import { RawJson } from './raw-json.js';
import type { RpcRegistry } from './registry.js';
import { envelopeProblem, idJsonOf, quoteForMessage, type JsonRpcRequest } from './request-envelope.js';
import { EMPTY_BATCH_RESPONSE, PARSE_ERROR_RESPONSE, SuccessParts, answerText, errorResponse, type RpcAnswer } from './response.js';
import type { RpcSession } from './session.js';

export interface RpcDispatcherOptions {
  /** `rpc.allowedMethods`: namespaces, full names or `*` that unlock sensitive methods. */
  readonly allowedMethods: readonly string[];
  /** Most requests accepted in one batch; a longer batch is refused as a whole (-32600). */
  readonly maxBatchSize: number;
  readonly logger: Logger;
  /** Counts requests and errors per method and transport, and times messages (the node's metrics). */
  readonly observer?: RpcObserver;
}

/**
 * Where the dispatcher reports what it serves (src/metrics/node-metrics.ts implements it). Each
 * counter is asked for once per method and transport and then kept, so a request costs two field
 * reads and an increment, never a label lookup.
 */
export interface RpcObserver {
  rpcRequestCounter(method: string, transport: string): { inc(): void };
  rpcErrorCounter(method: string, transport: string): { inc(): void };
  rpcLatencyOf(transport: string): { observe(seconds: number): void };
}

/** A transport's view of the dispatcher: its messages are counted and timed under its name. */
export interface TransportDispatcher {
  dispatch(rawBody: string | Buffer, session?: RpcSession): MaybePromise<string | undefined>;
  /**
   * `dispatch` with a single request's success answer left in its parts (SuccessParts), for a
   * transport that writes them without joining them into one string first.
   */
  dispatchAnswer(rawBody: string | Buffer, session?: RpcSession): MaybePromise<RpcAnswer | undefined>;
}

/** Labels for requests that name no registered method: a client must not be able to grow the label set. */
const UNKNOWN_METHOD = '(unknown)';
const INVALID_REQUEST_METHOD = '(invalid)';

interface MethodMeter {
  readonly requests: { inc(): void };
  readonly errors: { inc(): void };
}

/** One transport's counters, created on first use per method. */
class TransportMeter {
  private readonly methods = new Map<string, MethodMeter>();
  readonly latency: { observe(seconds: number): void };

  constructor(
    private readonly observer: RpcObserver,
    private readonly transport: string,
  ) {
    this.latency = observer.rpcLatencyOf(transport);
  }

  method(name: string): MethodMeter {
    let meter = this.methods.get(name);
    if (meter === undefined) {
      meter = {
        requests: this.observer.rpcRequestCounter(name, this.transport),
        errors: this.observer.rpcErrorCounter(name, this.transport),
      };
      this.methods.set(name, meter);
    }
    return meter;
  }

  /** A request refused before it reached a method. */
  refused(label: string): void {
    const meter = this.method(label);
    meter.requests.inc();
    meter.errors.inc();
  }
}

const DISABLED_MESSAGE = 'Requested method or namespace is disabled in node config.';
const INTERNAL_MESSAGE = 'Internal error.';

export class RpcDispatcher {
  private readonly access: MethodAccess;
  private readonly maxBatchSize: number;
  private readonly logger: Logger;
  private readonly observer: RpcObserver | undefined;
  private messages = 0;

  constructor(
    private readonly registry: RpcRegistry,
    options: RpcDispatcherOptions,
  ) {
    this.access = new MethodAccess(options.allowedMethods);
    this.maxBatchSize = options.maxBatchSize;
    this.logger = options.logger;
    this.observer = options.observer;
  }

  /**
   * The dispatcher as transport `transport` (`http`, `ws`, `ipc`) uses it: the same answers, with
   * its requests counted and its messages timed when the dispatcher has an observer.
   */
  forTransport(transport: string): TransportDispatcher {
    const observer = this.observer;
    let dispatchAnswer: TransportDispatcher['dispatchAnswer'];
    if (observer === undefined) dispatchAnswer = (rawBody, session) => this.run(rawBody, session, undefined);
    else {
      const meter = new TransportMeter(observer, transport);
      dispatchAnswer = (rawBody, session) => {
        const started = performance.now();
        const answer = this.run(rawBody, session, meter);
        if (!(answer instanceof Promise)) {
          meter.latency.observe((performance.now() - started) / 1000);
          return answer;
        }
        return answer.then((later) => {
          meter.latency.observe((performance.now() - started) / 1000);
          return later;
        });
      };
    }
    return { dispatchAnswer, dispatch: (rawBody, session) => textOf(dispatchAnswer(rawBody, session)) };
  }

  /**
   * Answers one transport message (a request or a batch, JSON-RPC 2.0 §4-§6). Resolves to the
   * answer text, or to undefined when nothing must be sent (notifications only). `session`
   * carries connection-local methods such as a WebSocket's `subscribe`.
   */
  async handle(rawBody: string | Buffer, session?: RpcSession): Promise<string | undefined> {
    return this.dispatch(rawBody, session);
  }

  /**
   * `handle` without the detour through a promise when every method involved answers
   * synchronously (LMDB reads do): the transports then write the answer inside the uWS callback,
   * which saves a microtask and a cork per request and keeps HTTP/1.1 pipelining working.
   */
  dispatch(rawBody: string | Buffer, session?: RpcSession): MaybePromise<string | undefined> {
    return textOf(this.run(rawBody, session, undefined));
  }

  /** `dispatch` with a single request's success answer in its parts (TransportDispatcher.dispatchAnswer). */
  dispatchAnswer(rawBody: string | Buffer, session?: RpcSession): MaybePromise<RpcAnswer | undefined> {
    return this.run(rawBody, session, undefined);
  }

  /** Messages (requests or batches) received so far, over every transport. */
  get messagesReceived(): number {
    return this.messages;
  }

  private run(
    rawBody: string | Buffer,
    session: RpcSession | undefined,
    meter: TransportMeter | undefined,
  ): MaybePromise<RpcAnswer | undefined> {
    this.messages += 1;
    let message: unknown;
    try {
      message = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
    } catch {
      meter?.refused(INVALID_REQUEST_METHOD);
      return PARSE_ERROR_RESPONSE;
    }
    if (!Array.isArray(message)) return this.handleRequest(message, session, meter);
    return this.handleBatch(message, session, meter);
  }

  private handleBatch(
    batch: unknown[],
    session: RpcSession | undefined,
    meter: TransportMeter | undefined,
  ): MaybePromise<string | undefined> {
    if (batch.length === 0 || batch.length > this.maxBatchSize) meter?.refused(INVALID_REQUEST_METHOD);
    if (batch.length === 0) return EMPTY_BATCH_RESPONSE;
    if (batch.length > this.maxBatchSize) {
      return errorResponse(
        'null',
        INVALID_REQUEST,
        `Invalid request: a batch may hold at most ${this.maxBatchSize} requests, this one holds ${batch.length}.`,
      );
    }
    // Members run concurrently (JSON-RPC 2.0 §6 allows any order); answers keep request order.
    const answers: MaybePromise<RpcAnswer | undefined>[] = new Array(batch.length);
    let anyPending = false;
    for (let i = 0; i < batch.length; i += 1) {
      const answer = this.handleRequest(batch[i], session, meter);
      if (answer instanceof Promise) anyPending = true;
      answers[i] = answer;
    }
    return anyPending ? Promise.all(answers).then(joinBatchAnswers) : joinBatchAnswers(answers as (RpcAnswer | undefined)[]);
  }

  private handleRequest(
    value: unknown,
    session: RpcSession | undefined,
    meter: TransportMeter | undefined,
  ): MaybePromise<RpcAnswer | undefined> {
    const problem = envelopeProblem(value);
    // An invalid request is always answered: we cannot know whether it meant to be a notification.
    if (problem !== undefined) {
      meter?.refused(INVALID_REQUEST_METHOD);
      return errorResponse(idJsonOf(value), INVALID_REQUEST, problem);
    }
    const request = value as JsonRpcRequest;
    const isNotification = request.id === undefined;
    const idJson = isNotification ? 'null' : JSON.stringify(request.id);
    const name = request.method;

    const sessionMethod = session?.sessionMethod(name);
    let stats: MethodMeter | undefined;
    let result: unknown;
    try {
      if (sessionMethod !== undefined) {
        stats = meter?.method(name);
        stats?.requests.inc();
        result = sessionMethod(request.params);
      } else {
        const method = this.registry.get(name);
        if (method === undefined) {
          meter?.refused(UNKNOWN_METHOD);
          return isNotification ? undefined : errorResponse(idJson, METHOD_NOT_FOUND, `Method ${quoteForMessage(name)} not found.`);
        }
        stats = meter?.method(name);
        stats?.requests.inc();
        if (!this.access.allows(method)) {
          stats?.errors.inc();
          return isNotification ? undefined : errorResponse(idJson, METHOD_DISABLED, DISABLED_MESSAGE);
        }
        const params = request.params ?? {};
        if (method.request !== undefined) {
          const problems = validationErrors(method.request, params);
          if (problems.length > 0) {
            stats?.errors.inc();
            return isNotification ? undefined : errorResponse(idJson, INVALID_PARAMS, describeParamsProblems(problems));
          }
        }
        result = method.invoke(params);
      }
    } catch (error) {
      return this.errorAnswer(isNotification, idJson, name, error, stats);
    }
    if (isPromiseLike(result)) return this.settle(result, isNotification, idJson, name, stats);
    return this.successAnswer(result, isNotification, idJson, name, stats);
  }

  private async settle(
    pending: PromiseLike<unknown>,
    isNotification: boolean,
    idJson: string,
    name: string,
    stats: MethodMeter | undefined,
  ): Promise<RpcAnswer | undefined> {
    let result: unknown;
    try {
      result = await pending;
    } catch (error) {
      return this.errorAnswer(isNotification, idJson, name, error, stats);
    }
    return this.successAnswer(result, isNotification, idJson, name, stats);
  }

  private successAnswer(
    result: unknown,
    isNotification: boolean,
    idJson: string,
    name: string,
    stats: MethodMeter | undefined,
  ): RpcAnswer | undefined {
    if (isNotification) return undefined;
    let resultJson: string;
    try {
      resultJson = serializeResult(result);
    } catch (error) {
      // A result that cannot be serialized (a bigint, a cycle) is a bug of the method.
      return this.errorAnswer(isNotification, idJson, name, error, stats);
    }
    return new SuccessParts(idJson, resultJson);
  }

  private errorAnswer(
    isNotification: boolean,
    idJson: string,
    name: string,
    error: unknown,
    stats: MethodMeter | undefined,
  ): string | undefined {
    stats?.errors.inc();
    const code = jsonRpcCodeOf(error);
    if (code === INTERNAL_ERROR) {
      // A bug or an environment failure: the details go to the log, never to the client.
      this.logger.error({ method: name.slice(0, 128), err: error }, 'RPC method failed');
      return isNotification ? undefined : errorResponse(idJson, INTERNAL_ERROR, INTERNAL_MESSAGE);
    }
    return isNotification ? undefined : errorResponse(idJson, code, (error as Error).message);
  }
}

/** A value now, or later. */
export type MaybePromise<T> = T | Promise<T>;

/** The text of an answer now or later (undefined: nothing to send). */
function textOf(answer: MaybePromise<RpcAnswer | undefined>): MaybePromise<string | undefined> {
  if (answer instanceof Promise) return answer.then(optionalText);
  return optionalText(answer);
}

function optionalText(answer: RpcAnswer | undefined): string | undefined {
  return answer === undefined ? undefined : answerText(answer);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value instanceof Promise || (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function')
  );
}

/** The answers of a batch's members as one JSON array; undefined when all were notifications (JSON-RPC 2.0 §6). */
function joinBatchAnswers(answers: readonly (RpcAnswer | undefined)[]): string | undefined {
  let text = '';
  for (const answer of answers) {
    if (answer === undefined) continue;
    text = text === '' ? answerText(answer) : `${text},${answerText(answer)}`;
  }
  return text === '' ? undefined : `[${text}]`;
}

/** The JSON text of a method's result; `undefined` answers `{}` like lisk-sdk's engine endpoints. */
function serializeResult(result: unknown): string {
  if (result instanceof RawJson) return result.json;
  // JSON.stringify gives undefined for undefined, functions and symbols.
  return JSON.stringify(result) ?? '{}';
}

/**
 * The validator's `<path>: <reason>` lines with the path rooted at `params`, so the message
 * names the field: `params.height: must be >= 0`, `params: must have required property 'id'`.
 */
function describeParamsProblems(problems: readonly string[]): string {
  let text = 'Invalid params: ';
  for (let i = 0; i < problems.length; i += 1) {
    if (i > 0) text += '; ';
    text += `params${problems[i]}`;
  }
  return text;
}
