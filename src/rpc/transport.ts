/**
 * The extension point for transports other than HTTP and WebSocket (such as Lisk's
 * ZeroMQ IPC sockets, ipc-transport.ts). Such a transport answers requests with the
 * server's `dispatcher` and receives every published event already serialized, so each event is
 * stringified once whatever the number of transports and subscribers.
 */
export interface RpcTransport {
  /** The `rpc.modes` value it implements, e.g. `ipc`. */
  readonly mode: string;
  /** Binds and starts serving; rejects with a clear error when it cannot. */
  start(): Promise<void>;
  /** Stops serving and releases its resources. */
  stop(): Promise<void>;
  /** Whether anyone may receive events now (false lets the server skip serializing them). */
  hasSubscribers(): boolean;
  /** Delivers `notification` (`{"jsonrpc":"2.0","method":<eventName>,"params":…}`) to its subscribers. */
  publish(eventName: string, notification: string): void;
}
