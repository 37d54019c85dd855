/**
 * Methods that exist only on one connection (a WebSocket's `subscribe` / `unsubscribe`): a
 * transport passes its session to the dispatcher with each message. Session methods are looked
 * up before the registry and are not subject to `allowedMethods` (as in lisk-sdk).
 */
export type SessionMethod = (params: unknown) => unknown;

export interface RpcSession {
  /** The connection-local method called `name`, if this connection has one. */
  sessionMethod(name: string): SessionMethod | undefined;
}
