/**
 * Basalt's JSON-RPC server (README "JSON-RPC"): registry, dispatcher, access control,
 * HTTP and WebSocket transports on uWebSockets.js, and the extension point for other transports.
 */
export { RpcRegistry, type RpcMethod } from './registry.js';
export { RpcDispatcher, type MaybePromise, type RpcDispatcherOptions } from './dispatcher.js';
export { RpcServer } from './server.js';
export { RPC_DEFAULTS, type RpcMode, type RpcServerOptions } from './server-options.js';
export type { RpcTransport } from './transport.js';
export type { RpcSession, SessionMethod } from './session.js';
export { RawJson } from './raw-json.js';
export {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_DISABLED,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  RESOURCE_NOT_FOUND,
  jsonRpcCodeOf,
} from './error-codes.js';
export { notificationMessage } from './response.js';
export { IpcTransport, IPC_DEFAULTS, type IpcTransportOptions } from './ipc-transport.js';
