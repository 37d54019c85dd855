/**
 * A client of Lisk Core 3's WebSocket API (lisk-sdk v5: the framework's bus serves JSON-RPC 2.0
 * on `ws://<host>:<rpc.port>/ws` when the config has `rpc: { enable: true, mode: 'ws' }`; the
 * reference client is `@liskhq/lisk-api-client` 5.x `createWSClient`). Requests are
 * `{jsonrpc, id, method: 'app:getNodeInfo', params}`; answers carry the same id with `result` or
 * `error`; events arrive as notifications without an id (`{method: 'app:block:new', params}`),
 * sent to every connected client.
 *
 * Why WebSocket and not IPC, which lisk-migrator uses: Lisk Core 3's IPC is pm2-axon over Unix
 * sockets with its own framing, a protocol of a package Basalt does not depend on; the WS API is
 * plain JSON-RPC over a socket Basalt's `ws` dependency already speaks, and works across hosts.
 */
import { WebSocket } from 'ws';
import { MigrationError } from '../migration-error.js';

/** The v3 node's default `rpc.port`. */
export const V3_DEFAULT_RPC_PORT = 8080;

export interface V3RpcError {
  readonly code?: number;
  readonly message?: string;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class V3WsClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(params: unknown) => void>>();
  private closedError: Error | undefined;

  private constructor(
    private readonly socket: WebSocket,
    readonly url: string,
    private readonly timeoutMs: number,
  ) {
    socket.on('message', (data) => this.onMessage(String(data)));
    socket.on('close', () =>
      this.failAll(new MigrationError('MIGRATION_V3_CONNECTION', `The Lisk Core v3 node at ${url} closed the connection.`)),
    );
    socket.on('error', () => undefined);
  }

  /** Opens a connection; rejects when nothing answers at `url` within `timeoutMs`. */
  static connect(url: string, timeoutMs = 5000): Promise<V3WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
      const fail = (error: Error): void => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        reject(
          new MigrationError(
            'MIGRATION_V3_CONNECTION',
            `Cannot reach the Lisk Core v3 node at ${url} (${error.message}). It must run with rpc: { enable: true, mode: "ws" }.`,
            undefined,
            { cause: error },
          ),
        );
      };
      socket.once('error', fail);
      socket.once('open', () => {
        socket.removeListener('error', fail);
        resolve(new V3WsClient(socket, url, timeoutMs));
      });
    });
  }

  /** Calls an action (`app:getNodeInfo`, `app:getForgingStatus`, ...). */
  invoke<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId;
    this.nextId += 1;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new MigrationError('MIGRATION_V3_CONNECTION', `The Lisk Core v3 node did not answer ${method} within ${this.timeoutMs} ms.`),
        );
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject, timer });
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new MigrationError('MIGRATION_V3_CONNECTION', `Cannot send ${method} to the Lisk Core v3 node: ${error.message}`));
      });
    });
  }

  /** Calls `listener` with the params of every `event` notification until `close`. */
  subscribe(event: string, listener: (params: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    this.failAll(new MigrationError('MIGRATION_V3_CONNECTION', 'The connection to the Lisk Core v3 node was closed.'));
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
      setTimeout(() => {
        this.socket.terminate();
        resolve();
      }, 1000).unref();
    });
  }

  private failAll(error: Error): void {
    this.closedError ??= error;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
  }

  private onMessage(text: string): void {
    let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: V3RpcError };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if ((message.id === undefined || message.id === null) && typeof message.method === 'string') {
      for (const listener of this.listeners.get(message.method) ?? []) listener(message.params);
      return;
    }
    const id = typeof message.id === 'number' ? message.id : Number(message.id);
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (message.error) {
      pending.reject(
        new MigrationError(
          'MIGRATION_V3_RPC',
          `The Lisk Core v3 node answered an error: ${message.error.message ?? JSON.stringify(message.error)}`,
        ),
      );
    } else {
      pending.resolve(message.result);
    }
  }
}

/** Whether a v3 node still answers at `url` (the auto-start's "is v3 stopped" check). */
export async function v3NodeAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  let client: V3WsClient | undefined;
  try {
    client = await V3WsClient.connect(url, timeoutMs);
    await client.invoke('app:getNodeInfo');
    return true;
  } catch {
    return false;
  } finally {
    await client?.close();
  }
}
