/**
 * Builds the node's RPC registry (lisk-sdk engine/endpoint/*.ts): the engine namespaces
 * (legacy, chain, consensus, state, system, app), every endpoint of every registered module, any extra
 * methods (txpool, generator, plugins...), the events the node publishes, and `rpc.discover`
 * (openrpc.ts), which describes all of them.
 */
import type { ChainStore } from '../chain/chain-store.js';
import type { Bft } from '../engine/consensus/bft/bft.js';
import { createAppEndpoints } from './endpoints/app-endpoints.js';
import { createChainEndpoints, type ChainEndpointLimits } from './endpoints/chain-endpoints.js';
import type { ChainReadOffload } from './endpoints/chain-read-offload.js';
import { createConsensusEndpoints } from './endpoints/consensus-endpoints.js';
import { createLegacyEndpoints, type LegacyEndpointsOptions } from './endpoints/legacy-endpoints.js';
import { NODE_EVENTS } from './endpoints/engine-events.js';
import type { NodeInfoSource } from './endpoints/node-info.js';
import { createStateEndpoints, type StateTreeProver } from './endpoints/state-endpoints.js';
import { createSystemEndpoints } from './endpoints/system-endpoints.js';
import { silentLogger, type Logger } from '../logger.js';
import type { NodeMetrics } from '../metrics/index.js';
import type { Module } from '../modules/base/index.js';
import type { StateDb } from '../state/state-db.js';
import { committedChainContext, endpointsToRpcMethods, moduleRpcMethods } from './endpoint-adapter.js';
import { registerDiscover } from './openrpc.js';
import { RpcRegistry, type RpcMethod } from './registry.js';

/** The opened chain (node.ts `openChain`) as far as the RPC methods read it. */
export interface RegistryChainPieces {
  readonly chainStore: ChainStore;
  readonly stateDb: Pick<StateDb, 'moduleReader' | 'engineReader'>;
  readonly bft: Bft;
  readonly modules: { readonly list: readonly Module[] };
}

export interface BuildRegistryOptions {
  readonly chain: RegistryChainPieces;
  readonly chainID: Buffer;
  readonly nodeInfo: NodeInfoSource;
  /** Given: getMetricsReport is registered and reads it (the dispatcher counts the calls, see RpcObserver). */
  readonly metrics?: NodeMetrics;
  /** Given: state_prove is registered (StateDb is meant to provide it). */
  readonly stateProver?: StateTreeProver;
  readonly chainLimits?: Partial<ChainEndpointLimits>;
  /** Most query keys in one state_prove call (1000 by default). */
  readonly maxStateProofKeys?: number;
  /** Unix seconds; injectable for tests (chain_getGeneratorList). */
  readonly now?: () => number;
  /** Methods of other rooms (txpool, generator, network, plugins). */
  readonly extraMethods?: readonly RpcMethod[];
  /** Events the node publishes; NODE_EVENTS by default. */
  readonly events?: readonly string[];
  readonly logger?: Logger;
  /** Given: heavy chain and state reads run in the worker pool on read-only LMDB views. */
  readonly readOffload?: ChainReadOffload;
  /** The legacy chain store and the configured brackets: the `legacy` namespace (every node has it). */
  readonly legacy?: LegacyEndpointsOptions;
}

export interface BuiltRegistry {
  readonly registry: RpcRegistry;
  /** See ChainEndpoints.dropCacheAbove: call after rewriting stored blocks above `height`. */
  dropCacheAbove(height: number): void;
  /** See ChainEndpoints.dropEventsUpTo: call after pruning stored events at and below `height`. */
  dropEventsUpTo(height: number): void;
}

/**
 * Registers every method and event. Throws InvalidParamsError (from RpcRegistry) for a duplicate
 * name or an unusable params schema, so a broken set fails at start-up.
 */
export function buildRegistry(options: BuildRegistryOptions): BuiltRegistry {
  const { chainStore, stateDb, bft, modules } = options.chain;
  const logger = options.logger ?? silentLogger;
  const engineState = () => stateDb.engineReader;
  const registry = new RpcRegistry();

  const offload = options.readOffload;
  const chain = createChainEndpoints({ chainStore, bft, engineState, now: options.now, limits: options.chainLimits, offload });
  const context = committedChainContext({ chainStore, moduleState: stateDb.moduleReader, chainID: options.chainID, logger });
  const methods: RpcMethod[] = [
    ...chain.methods,
    ...(options.legacy ? createLegacyEndpoints(options.legacy) : []),
    ...endpointsToRpcMethods('consensus', createConsensusEndpoints(bft, engineState), context),
    ...(options.stateProver
      ? createStateEndpoints({
          prover: options.stateProver,
          maxQueryKeys: options.maxStateProofKeys,
          offload: offload?.pool,
        })
      : []),
    ...createSystemEndpoints({
      chainStore,
      chainID: options.chainID,
      nodeInfo: options.nodeInfo,
      modules: modules.list,
      metrics: options.metrics,
      bft,
      engineState,
    }),
    ...moduleRpcMethods(modules.list, context),
    ...(options.extraMethods ?? []),
    ...createAppEndpoints(registry),
  ];
  for (const method of methods) registry.register(method);
  registry.addWarmUp(chain.warmUp);
  registry.addPrimingRequests(chain.primingRequests);
  registerDiscover(registry, options.nodeInfo.version);
  for (const event of options.events ?? NODE_EVENTS) registry.registerEvent(event);
  return {
    registry,
    dropCacheAbove: (height) => chain.dropCacheAbove(height),
    dropEventsUpTo: (height) => chain.dropEventsUpTo(height),
  };
}
