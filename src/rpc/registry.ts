/**
 * The RPC registry: every `<namespace>_<name>` method and every event name the node serves
 * (lisk-sdk engine/rpc/rpc_server.ts; src/plugins/README.md). Engine rooms, modules and plugins
 * register here; the dispatcher looks methods up here, and `app_getRegisteredEndpoints` /
 * `app_getRegisteredEvents` list what is here.
 */
import { validationErrors } from '../codec/index.js';
import { InvalidParamsError } from '../errors.js';

/** One callable RPC method. `invoke` receives params already checked against `request`. */
export interface RpcMethod {
  /** e.g. `chain`, `token`, `dynamicReward`: letters and digits, starting with a letter. */
  readonly namespace: string;
  /** e.g. `getBlockByHeight`: letters and digits, starting with a letter. */
  readonly name: string;
  /** JSON schema of `params`, checked with the codec's `validate` before `invoke` runs. */
  readonly request?: object;
  /** Refused (-32002) unless `rpc.allowedMethods` allows it (README "JSON-RPC"). */
  readonly sensitive?: boolean;
  /** JSON schema of the result, when the method declares one (module endpoints do); for rpc.discover. */
  readonly response?: object;
  /**
   * JSON-RPC error codes the method may answer besides the ones its declaration implies
   * (-32602 with a `request` schema, -32002 when sensitive, -32603 for any method), e.g. -32001
   * for a lookup that can miss. Listed by rpc.discover (openrpc.ts).
   */
  readonly errors?: readonly number[];
  invoke(params: Record<string, unknown>): unknown | Promise<unknown>;
}

// A namespace or a method name: lisk-sdk's request-name rule restricted so that the first `_`
// is always the separator (lisk-sdk ignores segments after the second `_`).
const NAME_PART = /^[a-zA-Z][a-zA-Z0-9]*$/;
// Event names are `<namespace>_<event>` in Lisk, but plugins may publish others: only refuse what
// cannot be a sensible topic (empty, control characters, absurd length).
const EVENT_NAME = /^[\x21-\x7e]{1,128}$/;

/** Names outside `<namespace>_<name>` that a method may be registered under. */
const RESERVED_NAMES = ['rpc.discover'] as const;

/**
 * Work that readies the methods' answers once the server listens (filling a cache, say): started
 * by RpcServer.start, given where to report a failure and how many messages the server has
 * received so far (work meant for idle time waits while that count moves), and stopped through
 * the function it returns before the server stops.
 */
export type RpcWarmUp = (onError: (error: unknown) => void, messagesReceived?: () => number) => () => void;

/**
 * Read-only request bodies that exercise the methods' busiest path (a block by height, say), run
 * in-process before the server listens (hot-path-priming.ts); asked for once, at start.
 */
export type RpcPrimingRequests = () => readonly string[];

/** The set of methods and events the node serves; names are unique. */
export class RpcRegistry {
  private readonly methods = new Map<string, RpcMethod>();
  private readonly reserved = new Map<string, RpcMethod>();
  private readonly events = new Set<string>();
  private readonly warmUps: RpcWarmUp[] = [];
  private readonly primers: RpcPrimingRequests[] = [];
  private sortedMethodNames: string[] | undefined;

  /**
   * Adds `method` under `<namespace>_<name>`. Throws InvalidParamsError for a malformed name, a
   * name already taken, or a `request` schema the validator cannot compile (so a broken schema
   * fails at start-up, not as a -32602 on the first call).
   */
  register(method: RpcMethod): void {
    if (!NAME_PART.test(method.namespace)) {
      throw new InvalidParamsError(`RPC namespace "${method.namespace}" must be letters and digits, starting with a letter.`);
    }
    if (!NAME_PART.test(method.name)) {
      throw new InvalidParamsError(`RPC method name "${method.name}" must be letters and digits, starting with a letter.`);
    }
    const fullName = `${method.namespace}_${method.name}`;
    if (this.methods.has(fullName)) {
      throw new InvalidParamsError(`RPC method ${fullName} is already registered.`);
    }
    if (method.request !== undefined) compileSchemaOrThrow(fullName, method.request);
    this.methods.set(fullName, method);
    this.sortedMethodNames = undefined;
  }

  /** Declares an event that the node publishes (listed by `app_getRegisteredEvents`). */
  registerEvent(name: string): void {
    if (!EVENT_NAME.test(name)) {
      throw new InvalidParamsError(`RPC event name "${name}" must be 1-128 printable ASCII characters without spaces.`);
    }
    if (this.events.has(name)) throw new InvalidParamsError(`RPC event ${name} is already registered.`);
    this.events.add(name);
  }

  /** The method registered as `<namespace>_<name>` (or a reserved name such as `rpc.discover`), if any. */
  get(fullName: string): RpcMethod | undefined {
    return this.methods.get(fullName) ?? this.reserved.get(fullName);
  }

  /**
   * Adds a method under a name that JSON-RPC conventions reserve (`rpc.discover`, OpenRPC 1.3
   * "Service Discovery Method"). It is callable like any other but is not a `<namespace>_<name>`
   * endpoint, so `methodNames` (and app_getRegisteredEndpoints) leave it out, as lisk-sdk would.
   */
  registerReserved(fullName: (typeof RESERVED_NAMES)[number], method: RpcMethod): void {
    if (this.reserved.has(fullName)) throw new InvalidParamsError(`RPC method ${fullName} is already registered.`);
    this.reserved.set(fullName, method);
  }

  /** Every registered `<namespace>_<name>`, sorted (a fresh array the caller may keep). */
  methodNames(): string[] {
    this.sortedMethodNames ??= [...this.methods.keys()].sort();
    return this.sortedMethodNames.slice();
  }

  /** Adds work for RpcServer.start to begin once it listens (see RpcWarmUp). */
  addWarmUp(warmUp: RpcWarmUp): void {
    this.warmUps.push(warmUp);
  }

  /** Starts every warm-up; returns the function that stops them all. */
  startWarmUps(onError: (error: unknown) => void, messagesReceived?: () => number): () => void {
    const stops = this.warmUps.map((warmUp) => warmUp(onError, messagesReceived));
    return () => {
      for (const stop of stops) stop();
    };
  }

  /** Adds requests for RpcServer.start to run before it listens (see RpcPrimingRequests). */
  addPrimingRequests(primer: RpcPrimingRequests): void {
    this.primers.push(primer);
  }

  /** Every priming request, in the order the primers were added. */
  primingRequests(): string[] {
    return this.primers.flatMap((primer) => primer());
  }

  /** Every registered event name, sorted (a fresh array). */
  eventNames(): string[] {
    return [...this.events].sort();
  }
}

function compileSchemaOrThrow(fullName: string, schema: object): void {
  try {
    // Compiles and caches the validator; the data is irrelevant, only compile errors matter.
    validationErrors(schema, {});
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidParamsError(`RPC method ${fullName} has an unusable params schema: ${reason}`);
  }
}
