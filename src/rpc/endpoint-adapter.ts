/**
 * Serves module endpoints (`<module>_<name>`) as RPC methods. lisk-sdk runs
 * them as ABI queries against the state of the last block with `context.header` = the last
 * header; here each call gets a context built at call time from a provider: the committed state
 * reader and the tip header. Params reach the handler already checked by the dispatcher against
 * the handler's `request` schema.
 */
import type { ChainStore } from '../chain/chain-store.js';
import type { Logger } from '../logger.js';
import type { EndpointContext, EndpointHandler, ExecutionHeader, Module } from '../modules/base/index.js';
import type { StateReader } from '../state/state-view.js';
import type { RpcMethod } from './registry.js';
import { StoreError } from '../errors.js';
import { INVALID_PARAMS, RESOURCE_NOT_FOUND } from './error-codes.js';

const ENDPOINT_ERRORS: readonly number[] = [INVALID_PARAMS, RESOURCE_NOT_FOUND];

/** Where an endpoint call's context comes from; read anew on every call. */
export interface EndpointContextProvider {
  readonly chainID: Buffer;
  readonly logger: Logger;
  /** The committed module state (the state after the tip block). */
  stateReader(): StateReader;
  /** The header of the tip; only read when a handler uses `context.header`. */
  tipHeader(): ExecutionHeader;
}

/**
 * The context of one call. The tip header is decoded from the store only when the handler reads
 * it (most endpoints never do), and then once per call.
 */
class CallContext implements EndpointContext {
  readonly state: StateReader;
  private cachedHeader: ExecutionHeader | undefined;

  constructor(
    private readonly provider: EndpointContextProvider,
    readonly params: Record<string, unknown>,
  ) {
    this.state = provider.stateReader();
  }

  get chainID(): Buffer {
    return this.provider.chainID;
  }

  get logger(): Logger {
    return this.provider.logger;
  }

  get header(): ExecutionHeader {
    this.cachedHeader ??= this.provider.tipHeader();
    return this.cachedHeader;
  }
}

/**
 * `handler` as the RPC method `<namespace>_<name>`: same params schema and sensitivity; the result
 * (or promise) of `handle` is the method's result, and what it throws goes to the dispatcher's
 * error mapping (NotFoundError → -32001, ValidationError → -32602, anything else → -32603).
 */
export function endpointToRpcMethod(
  namespace: string,
  name: string,
  handler: EndpointHandler,
  provider: EndpointContextProvider,
): RpcMethod {
  return {
    namespace,
    name,
    request: handler.request,
    sensitive: handler.sensitive === true,
    ...(handler.response === undefined ? {} : { response: handler.response }),
    // Module stores answer a missing key with NotFoundError, and handlers check params beyond their schema.
    errors: ENDPOINT_ERRORS,
    invoke: (params) => handler.handle(new CallContext(provider, params)),
  };
}

/** Every handler of `endpoints` under `namespace`, in the record's order. */
export function endpointsToRpcMethods(
  namespace: string,
  endpoints: Readonly<Record<string, EndpointHandler>>,
  provider: EndpointContextProvider,
): RpcMethod[] {
  return Object.entries(endpoints).map(([name, handler]) => endpointToRpcMethod(namespace, name, handler, provider));
}

/** Every endpoint of every module, each under the module's name (`token_getBalance`, ...). */
export function moduleRpcMethods(modules: readonly Pick<Module, 'name' | 'endpoints'>[], provider: EndpointContextProvider): RpcMethod[] {
  return modules.flatMap((module) => endpointsToRpcMethods(module.name, module.endpoints, provider));
}

/**
 * The usual provider: the committed state reader of the state store and the tip header of the
 * chain store, both read at call time, so a call always sees one committed block.
 */
export function committedChainContext(options: {
  readonly chainStore: Pick<ChainStore, 'tipHeight' | 'getHeaderByHeight'>;
  readonly moduleState: StateReader;
  readonly chainID: Buffer;
  readonly logger: Logger;
}): EndpointContextProvider {
  const { chainStore, moduleState } = options;
  return {
    chainID: options.chainID,
    logger: options.logger,
    stateReader: () => moduleState,
    tipHeader: () => {
      const header = chainStore.getHeaderByHeight(chainStore.tipHeight());
      if (header === undefined) throw new StoreError('Store inconsistency: the tip header is missing.');
      return header;
    },
  };
}
