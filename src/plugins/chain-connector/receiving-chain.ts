/**
 * The relayer's line to the receiving chain: a small JSON-RPC 2.0 client over WebSocket
 * (`receivingChainWsURL`, e.g. ws://host:7887/rpc-ws) or over the node's IPC socket
 * (`receivingChainIPCPath`, the receiving node's data path, as lisk-sdk's `createIPCClient`
 * takes it), that works the same against Basalt and lisk-sdk.
 *
 * The receiving chain may be down, slow or not started yet: nothing here ever blocks the node.
 * A failed connection is retried with exponential backoff (1 s doubling to 60 s), attempts only
 * happen when the relayer needs the chain, and the log gets one line when the chain becomes
 * unreachable and one when it is back, not one per block.
 */
import WebSocket from 'ws';
import { Dealer } from 'zeromq';
import type { Logger } from '../../logger.js';
import { ipcEndpoint, ipcSocketDir, ipcSocketPaths } from '../../rpc/ipc-socket-files.js';

export interface RpcConnection {
  invoke<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
  /** Called once when the connection is lost. */
  onClose(listener: () => void): void;
}

/** An answer of the receiving chain with a JSON-RPC error. */
export class ReceivingChainRpcError extends Error {
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    rpcMessage: string,
  ) {
    super(`${method} on the receiving chain failed (${rpcCode}): ${rpcMessage}`);
  }
}

const CONNECT_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;

type Settle = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout; method: string };

/** Matches answers to requests by id; shared by both transports. */
class Calls {
  private readonly open = new Map<number, Settle>();
  private lastID = 0;

  request(method: string, send: (text: string) => void, params: Record<string, unknown>): Promise<unknown> {
    this.lastID += 1;
    const id = this.lastID;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.open.delete(id);
        reject(new Error(`${method}: no answer from the receiving chain within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.open.set(id, { resolve, reject, timer, method });
      try {
        send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      } catch (error) {
        this.settle(id, undefined, error as Error);
      }
    });
  }

  receive(text: string): void {
    let message: { id?: unknown; result?: unknown; error?: { code?: number; message?: string } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message.id !== 'number') return; // an event notification: the relayer subscribes to none
    const call = this.open.get(message.id);
    if (call === undefined) return;
    const failure =
      message.error === undefined
        ? undefined
        : new ReceivingChainRpcError(call.method, message.error.code ?? 0, message.error.message ?? 'unknown error');
    this.settle(message.id, message.result, failure);
  }

  failAll(reason: string): void {
    for (const id of [...this.open.keys()]) this.settle(id, undefined, new Error(reason));
  }

  private settle(id: number, result: unknown, failure: Error | undefined): void {
    const call = this.open.get(id);
    if (call === undefined) return;
    this.open.delete(id);
    clearTimeout(call.timer);
    if (failure === undefined) call.resolve(result);
    else call.reject(failure);
  }
}

/** Opens a WebSocket JSON-RPC connection; rejects when it is not open within 5 s. */
export async function openWsConnection(url: string): Promise<RpcConnection> {
  const socket = new WebSocket(url, { handshakeTimeout: CONNECT_TIMEOUT_MS });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', (error) => reject(new Error(`cannot connect to ${url}: ${error.message}`)));
  });
  const calls = new Calls();
  const closeListeners: (() => void)[] = [];
  socket.on('message', (data) => calls.receive(data.toString()));
  socket.on('error', () => {}); // the close event that follows reports it
  socket.once('close', () => {
    calls.failAll('the receiving chain closed the WebSocket');
    for (const listener of closeListeners) listener();
  });
  return {
    invoke: async <T>(method: string, params: Record<string, unknown> = {}) =>
      (await calls.request(method, (text) => socket.send(text), params)) as T,
    close: () => socket.close(),
    onClose: (listener) => closeListeners.push(listener),
  };
}

/**
 * Opens the IPC connection to the node whose data path is `dataPath`. ZeroMQ connects lazily, so
 * the first call proves the socket is served: `system_getNodeInfo` is asked before the
 * connection is handed out.
 */
export async function openIpcConnection(dataPath: string): Promise<RpcConnection> {
  const socket = new Dealer({ linger: 0, immediate: true, sendTimeout: CONNECT_TIMEOUT_MS });
  socket.connect(ipcEndpoint(ipcSocketPaths(ipcSocketDir(dataPath)).rpc));
  const calls = new Calls();
  const closeListeners: (() => void)[] = [];
  let closed = false;
  const lose = (reason: string) => {
    if (closed) return;
    closed = true;
    calls.failAll(reason);
    socket.close();
    for (const listener of closeListeners) listener();
  };
  void (async () => {
    try {
      for await (const [frame] of socket) if (frame) calls.receive(frame.toString('utf8'));
    } catch {
      // the socket was closed
    }
    lose('the IPC connection to the receiving chain ended');
  })();
  const send = (text: string) => {
    socket.send(text).catch(() => lose(`no IPC server answers at ${dataPath}`));
  };
  const connection: RpcConnection = {
    invoke: async <T>(method: string, params: Record<string, unknown> = {}) => (await calls.request(method, send, params)) as T,
    close: () => lose('closed'),
    onClose: (listener) => closeListeners.push(listener),
  };
  try {
    await connection.invoke('system_getNodeInfo');
  } catch (error) {
    lose('closed');
    throw new Error(`cannot reach the receiving chain over IPC at ${dataPath}: ${(error as Error).message}`);
  }
  return connection;
}

export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 60_000;

/**
 * The receiving chain as the relayer sees it: connected, or not yet and when to try again.
 * `connection()` never waits longer than one connection attempt (5 s at most), and between
 * failed attempts it answers `undefined` at once until the backoff delay has passed.
 */
export class ReceivingChain {
  private current: RpcConnection | undefined;
  private attempt: Promise<RpcConnection | undefined> | undefined;
  private failures = 0;
  private retryAt = 0;
  private reachable: boolean | undefined;

  constructor(
    private readonly open: () => Promise<RpcConnection>,
    private readonly where: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until the next connection attempt is allowed (0: now). */
  get retryInMs(): number {
    return Math.max(0, this.retryAt - this.now());
  }

  get connected(): boolean {
    return this.current !== undefined;
  }

  async connection(): Promise<RpcConnection | undefined> {
    if (this.current !== undefined) return this.current;
    if (this.now() < this.retryAt) return undefined;
    this.attempt ??= this.connect().finally(() => {
      this.attempt = undefined;
    });
    return this.attempt;
  }

  /** Calls `method` when connected; a transport failure drops the connection (an RPC error does not). */
  async invoke<T>(method: string, params?: Record<string, unknown>): Promise<T> {
    const connection = await this.connection();
    if (connection === undefined) throw new Error(`the receiving chain at ${this.where} is not reachable`);
    try {
      return await connection.invoke<T>(method, params);
    } catch (error) {
      if (!(error instanceof ReceivingChainRpcError)) this.drop(connection, (error as Error).message);
      throw error;
    }
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
  }

  private async connect(): Promise<RpcConnection | undefined> {
    try {
      const connection = await this.open();
      this.current = connection;
      this.failures = 0;
      this.retryAt = 0;
      connection.onClose(() => this.drop(connection, 'connection closed'));
      if (this.reachable !== true) this.logger.info({ receivingChain: this.where }, 'Chain connector: connected to the receiving chain');
      this.reachable = true;
      return connection;
    } catch (error) {
      this.backOff((error as Error).message);
      return undefined;
    }
  }

  private drop(connection: RpcConnection, reason: string): void {
    if (this.current !== connection) return;
    this.current = undefined;
    connection.close();
    this.backOff(reason);
  }

  private backOff(reason: string): void {
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures);
    this.failures += 1;
    this.retryAt = this.now() + delay;
    if (this.reachable !== false) {
      this.logger.warn(
        { receivingChain: this.where, reason },
        'Chain connector: the receiving chain is unreachable; retrying with backoff (data of new blocks is still recorded)',
      );
    }
    this.reachable = false;
  }
}
