/**
 * Options of the RPC server: the `rpc` config keys of lisk-sdk's application config plus
 * Basalt's limits, with their defaults and the checks applied when the server is built.
 */
import { InvalidParamsError } from '../errors.js';

export type RpcMode = 'ipc' | 'ws' | 'http';

export interface RpcServerOptions {
  /** `rpc.modes`: transports to serve. `http` and `ws` share host and port. */
  readonly modes: readonly RpcMode[];
  /** `rpc.host`: address to bind, e.g. `127.0.0.1`. */
  readonly host: string;
  /** `rpc.port`: 0 binds a free port (see `RpcServer.port`). */
  readonly port: number;
  /** `rpc.allowedMethods`: what unlocks sensitive methods (namespaces, full names, `*`). */
  readonly allowedMethods: readonly string[];
  /** `rpc.accessControlAllowOrigin`: CORS origin, `*` by default. */
  readonly accessControlAllowOrigin?: string;
  /** Largest HTTP body / WebSocket message accepted; 1 MiB by default. */
  readonly maxBodyBytes?: number;
  /** Most requests in one batch; 100 by default. */
  readonly maxBatchSize?: number;
  /** Send backlog at which a WebSocket is cut off; 4 MiB by default. */
  readonly wsMaxBufferedBytes?: number;
  /** Seconds of silence before a WebSocket is pinged and, failing an answer, closed: 0 or 8-960; 60 by default. */
  readonly wsIdleTimeoutSeconds?: number;
}

export type ResolvedRpcServerOptions = Required<RpcServerOptions>;

export const RPC_DEFAULTS = {
  accessControlAllowOrigin: '*',
  maxBodyBytes: 1024 * 1024,
  maxBatchSize: 100,
  wsMaxBufferedBytes: 4 * 1024 * 1024,
  wsIdleTimeoutSeconds: 60,
} as const;

const MODES: ReadonlySet<string> = new Set(['ipc', 'ws', 'http']);

/** Fills in defaults and checks every value; throws InvalidParamsError naming the bad option. */
export function resolveRpcServerOptions(options: RpcServerOptions): ResolvedRpcServerOptions {
  for (const mode of options.modes) {
    if (!MODES.has(mode)) throw new InvalidParamsError(`rpc.modes: unknown mode "${String(mode)}" (expected ipc, ws or http).`);
  }
  const resolved: ResolvedRpcServerOptions = {
    modes: [...new Set(options.modes)],
    host: options.host,
    port: options.port,
    allowedMethods: [...options.allowedMethods],
    accessControlAllowOrigin: options.accessControlAllowOrigin ?? RPC_DEFAULTS.accessControlAllowOrigin,
    maxBodyBytes: options.maxBodyBytes ?? RPC_DEFAULTS.maxBodyBytes,
    maxBatchSize: options.maxBatchSize ?? RPC_DEFAULTS.maxBatchSize,
    wsMaxBufferedBytes: options.wsMaxBufferedBytes ?? RPC_DEFAULTS.wsMaxBufferedBytes,
    wsIdleTimeoutSeconds: options.wsIdleTimeoutSeconds ?? RPC_DEFAULTS.wsIdleTimeoutSeconds,
  };
  if (typeof resolved.host !== 'string' || resolved.host === '') throw new InvalidParamsError('rpc.host: must be a non-empty string.');
  requireInteger('rpc.port', resolved.port, 0, 65535);
  requireInteger('rpc.maxBodyBytes', resolved.maxBodyBytes, 1, 2 ** 31 - 1);
  requireInteger('rpc.maxBatchSize', resolved.maxBatchSize, 1, 100_000);
  requireInteger('rpc.wsMaxBufferedBytes', resolved.wsMaxBufferedBytes, 1024, 2 ** 31 - 1);
  // uWS refuses idle timeouts from 1 to 7 seconds (its timer granularity is 4 s).
  if (resolved.wsIdleTimeoutSeconds !== 0) requireInteger('rpc.wsIdleTimeoutSeconds', resolved.wsIdleTimeoutSeconds, 8, 960);
  for (const entry of resolved.allowedMethods) {
    if (typeof entry !== 'string') throw new InvalidParamsError('rpc.allowedMethods: must hold strings only.');
  }
  if (/[\r\n]/.test(resolved.accessControlAllowOrigin)) {
    throw new InvalidParamsError('rpc.accessControlAllowOrigin: must not contain line breaks.');
  }
  return resolved;
}

function requireInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParamsError(`${name}: must be an integer from ${min} to ${max}, got ${String(value)}.`);
  }
}
