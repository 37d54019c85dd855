/**
 * A small JSON-RPC client for the commands that talk to a running node (docs/protocol/cli.md):
 * over IPC by default — Lisk's ZeroMQ socket `<dataPath>/tmp/sockets/engine.external.rpc.ipc`,
 * a DEALER sending one JSON frame per request — or over HTTP (`POST /rpc`) or WebSocket
 * (`/rpc-ws`) when the command is given `--url`.
 *
 * Errors name the method and carry the node's message; they never contain the params (which
 * may hold a password).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Dealer } from 'zeromq';
import { ipcEndpoint, ipcSocketDir, ipcSocketPaths } from '../../rpc/ipc-socket-files.js';

export interface NodeClient {
  /** Calls `method`; resolves with its result, rejects with RpcCallError or a transport error. */
  invoke<T = unknown>(method: string, params?: object): Promise<T>;
  close(): Promise<void>;
}

/** The node answered a call with a JSON-RPC error object. */
export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
  ) {
    super(`${method}: ${rpcMessage}${rpcCode === METHOD_DISABLED ? ` ${disabledHint(method)}` : ''}`);
  }
}

/** JSON-RPC codes the commands react to (src/rpc/error-codes.ts). */
export const METHOD_DISABLED = -32002;
export const RESOURCE_NOT_FOUND = -32001;
export const METHOD_NOT_FOUND = -32601;

function disabledHint(method: string): string {
  const namespace = method.split('_')[0] ?? method;
  return `(add "${namespace}" or "${method}" to rpc.allowedMethods in the node's config and restart it with --overwrite-config)`;
}

/** Lisk's timeouts (lisk-api-client ipc_channel.ts). */
export const CONNECT_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;

export interface ConnectOptions {
  /** Absolute data path of the node (IPC). */
  readonly dataPath: string;
  /** `http(s)://host:port[/rpc]` or `ws(s)://host:port[/rpc-ws]`: use it instead of IPC. */
  readonly url?: string;
  readonly requestTimeoutMs?: number;
}

interface JsonRpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
}

function settle<T>(method: string, answer: JsonRpcAnswer): T {
  if (answer.error !== undefined) {
    const { code, message, data } = answer.error;
    // Lisk's client shows `error.data` when it is a string, else `error.message`.
    throw new RpcCallError(
      method,
      typeof code === 'number' ? code : 0,
      typeof data === 'string' ? data : String(message ?? 'Unknown error'),
    );
  }
  return (answer.result ?? {}) as T;
}

/** Connects to the node at `dataPath` (IPC) or at `url`. */
export async function connectNode(options: ConnectOptions): Promise<NodeClient> {
  const timeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  if (options.url !== undefined) {
    const url = new URL(options.url);
    if (url.protocol === 'http:' || url.protocol === 'https:') return new HttpNodeClient(url, timeout);
    if (url.protocol === 'ws:' || url.protocol === 'wss:') return WsNodeClient.open(url, timeout);
    throw new Error(`Unsupported --url ${url.protocol}//: use http://, https://, ws:// or wss://.`);
  }
  checkNodeRunning(options.dataPath);
  const socketPath = ipcSocketPaths(ipcSocketDir(options.dataPath)).rpc;
  if (!existsSync(socketPath)) {
    throw new Error(
      `The node at data path ${options.dataPath} does not serve IPC (no ${socketPath}): add "ipc" to rpc.modes, or use --url.`,
    );
  }
  return new IpcNodeClient(ipcEndpoint(socketPath), timeout);
}

/**
 * Lisk's "node running?" check (lisk-commander base_ipc_client.ts) on Basalt's data-directory lock
 * (`<dataPath>/basalt.lock`, holding the node's process id): missing, or its process gone,
 * means no node runs there.
 */
export function checkNodeRunning(dataPath: string): void {
  const notRunning = new Error(`Application at data path ${dataPath} is not running.`);
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(join(dataPath, 'basalt.lock'), 'utf8'), 10);
  } catch {
    throw notRunning;
  }
  if (!Number.isInteger(pid) || pid <= 0) throw notRunning;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw notRunning;
  }
}

interface Pending {
  readonly method: string;
  readonly resolve: (answer: JsonRpcAnswer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Requests by id, each with its timeout; shared by the IPC and WebSocket clients. */
class PendingRequests {
  private readonly byId = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly timeoutMs: number) {}

  add(method: string): { id: number; answer: Promise<JsonRpcAnswer> } {
    const id = this.nextId++;
    const answer = new Promise<JsonRpcAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.byId.delete(id);
        reject(new Error(`${method}: Response not received in ${this.timeoutMs}ms`));
      }, this.timeoutMs);
      this.byId.set(id, { method, resolve, reject, timer });
    });
    return { id, answer };
  }

  answer(text: string): void {
    let answer: JsonRpcAnswer;
    try {
      answer = JSON.parse(text) as JsonRpcAnswer;
    } catch {
      return; // not an answer of ours
    }
    if (typeof answer.id !== 'number') return;
    const pending = this.byId.get(answer.id);
    if (!pending) return;
    this.byId.delete(answer.id);
    clearTimeout(pending.timer);
    pending.resolve(answer);
  }

  failAll(error: Error): void {
    for (const pending of this.byId.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.byId.clear();
  }
}

class IpcNodeClient implements NodeClient {
  private readonly socket: Dealer;
  private readonly pending: PendingRequests;
  private closed = false;

  constructor(endpoint: string, timeoutMs: number) {
    // immediate: messages wait for a completed connection, so `send` fails after sendTimeout
    // when nobody listens on the socket file (a stale file of a killed node).
    this.socket = new Dealer({ linger: 0, immediate: true, sendTimeout: CONNECT_TIMEOUT_MS });
    this.socket.connect(endpoint);
    this.pending = new PendingRequests(timeoutMs);
    void this.read();
  }

  async invoke<T>(method: string, params: object = {}): Promise<T> {
    const { id, answer } = this.pending.add(method);
    try {
      await this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    } catch {
      this.pending.failAll(new Error('IPC Socket client connection timeout. Please check if IPC server is running.'));
    }
    return settle<T>(method, await answer);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending.failAll(new Error('The connection to the node was closed.'));
    this.socket.close();
  }

  private async read(): Promise<void> {
    try {
      for await (const [frame] of this.socket) {
        if (frame) this.pending.answer(frame.toString('utf8'));
      }
    } catch (error) {
      if (!this.closed) this.pending.failAll(new Error(`IPC connection failed: ${(error as Error).message}`));
    }
  }
}

class HttpNodeClient implements NodeClient {
  private readonly endpoint: URL;
  private nextId = 1;

  constructor(
    url: URL,
    private readonly timeoutMs: number,
  ) {
    this.endpoint = new URL(url);
    if (this.endpoint.pathname === '/' || this.endpoint.pathname === '') this.endpoint.pathname = '/rpc';
  }

  async invoke<T>(method: string, params: object = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `Response not received in ${this.timeoutMs}ms` : (error as Error).message;
      throw new Error(`${method}: cannot reach the node at ${this.endpoint.origin} (${reason}).`);
    }
    let answer: JsonRpcAnswer;
    try {
      answer = (await response.json()) as JsonRpcAnswer;
    } catch {
      throw new Error(`${method}: the node at ${this.endpoint.origin} answered HTTP ${response.status} without JSON.`);
    }
    return settle<T>(method, answer);
  }

  async close(): Promise<void> {
    // Nothing to close: fetch keeps no connection we own.
  }
}

/** The WebSocket constructor of the runtime (global in Node 22+). */
type WebSocketLike = {
  send(text: string): void;
  close(): void;
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
};

class WsNodeClient implements NodeClient {
  private readonly pending: PendingRequests;

  private constructor(
    private readonly socket: WebSocketLike,
    timeoutMs: number,
  ) {
    this.pending = new PendingRequests(timeoutMs);
    socket.addEventListener('message', (event) => this.pending.answer(String(event.data)));
    socket.addEventListener('close', () => this.pending.failAll(new Error('The node closed the WebSocket.')));
  }

  static async open(url: URL, timeoutMs: number): Promise<WsNodeClient> {
    const WebSocketClass = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
    if (WebSocketClass === undefined) {
      throw new Error('WebSocket --url needs Node 22 or later (a global WebSocket); use an http:// URL instead.');
    }
    const target = new URL(url);
    if (target.pathname === '/' || target.pathname === '') target.pathname = '/rpc-ws';
    const socket = new WebSocketClass(target.toString());
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Cannot connect to ${target.origin}: timeout.`)), CONNECT_TIMEOUT_MS);
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`Cannot connect to ${target.origin}.`));
      });
    });
    return new WsNodeClient(socket, timeoutMs);
  }

  async invoke<T>(method: string, params: object = {}): Promise<T> {
    const { id, answer } = this.pending.add(method);
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return settle<T>(method, await answer);
  }

  async close(): Promise<void> {
    this.socket.close();
  }
}

/** Runs `work` with a connected client and always closes it. */
export async function withNode<T>(options: ConnectOptions, work: (client: NodeClient) => Promise<T>): Promise<T> {
  const client = await connectNode(options);
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}
