/**
 * The `app` namespace: what this node serves, read from the registry at call time so that the lists
 * always match what is registered.
 *
 * Deliberate differences from lisk-sdk 6.1: its getRegisteredEndpoints lists only the bus-level
 * methods (app and modules, App. C) and its getRegisteredEvents only app_ready/app_shutdown;
 * Basalt lists every registered method (engine ones included) and every published event, sorted.
 * lisk-sdk 6.1 has no getRegisteredActions (it answers "Request 'app_getRegisteredActions' is not
 * registered to bus."); v5's `app:getRegisteredActions` listed every callable action, which v6
 * renamed endpoints, so Basalt answers it with the same list as getRegisteredEndpoints.
 */
import type { RpcMethod, RpcRegistry } from '../registry.js';

/** Builds app_getRegisteredEndpoints, app_getRegisteredEvents and app_getRegisteredActions. */
export function createAppEndpoints(registry: Pick<RpcRegistry, 'methodNames' | 'eventNames'>): RpcMethod[] {
  return [
    { namespace: 'app', name: 'getRegisteredEndpoints', invoke: () => registry.methodNames() },
    { namespace: 'app', name: 'getRegisteredEvents', invoke: () => registry.eventNames() },
    { namespace: 'app', name: 'getRegisteredActions', invoke: () => registry.methodNames() },
  ];
}
