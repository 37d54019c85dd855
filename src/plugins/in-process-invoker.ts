/**
 * `PluginContext.invoke`: a plugin calls any registered RPC method as a client would, through a
 * dispatcher of its own over the node's registry, so params checks, results and error codes are
 * exactly what clients get. Access control is off (`*`): the plugin runs inside the node.
 */
import { InvalidParamsError, InvariantError, NotFoundError } from '../errors.js';
import type { Logger } from '../logger.js';
import { RpcDispatcher } from '../rpc/dispatcher.js';
import { INVALID_PARAMS, RESOURCE_NOT_FOUND } from '../rpc/error-codes.js';
import type { RpcRegistry } from '../rpc/registry.js';

export type Invoke = <T = unknown>(method: string, params?: Record<string, unknown>) => Promise<T>;

/** An `invoke` over `registry`. Errors come back as NotFoundError, InvalidParamsError or Error. */
export function createInProcessInvoker(registry: RpcRegistry, logger: Logger): Invoke {
  const dispatcher = new RpcDispatcher(registry, { allowedMethods: ['*'], maxBatchSize: 1, logger });
  return async <T>(method: string, params?: Record<string, unknown>): Promise<T> => {
    if (typeof method !== 'string') throw new InvalidParamsError('invoke: the method name must be a string.');
    const answer = await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 0, method, params: params ?? {} }));
    // A request with an id always gets an answer; undefined would be a dispatcher bug.
    if (answer === undefined) throw new InvariantError(`invoke: no answer from ${method}.`);
    const response = JSON.parse(answer) as { result?: T; error?: { code: number; message: string } };
    if (response.error === undefined) return response.result as T;
    const { code, message } = response.error;
    if (code === RESOURCE_NOT_FOUND) throw new NotFoundError(message);
    if (code === INVALID_PARAMS) throw new InvalidParamsError(message);
    // Deliberately a plain Error (the plugin API documents it so): it relays another method's
    // answer, whose JSON-RPC code is in the message, and a plugin rethrowing it answers -32603.
    throw new Error(`${method} failed (${code}): ${message}`);
  };
}
