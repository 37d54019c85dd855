/**
 * Composition root: the one place that knows every room and wires them into a node. The running
 * node (`start`, through src/runtime/start-node.ts), `blockchain:replay`, the benchmarks and the
 * tests all assemble theirs here, never by wiring the parts a second time.
 *
 * A node is built from parts, each of which can be left out:
 *   workers   where signature checks and large state-tree updates run (node/node-workers.ts):
 *             a pool as BASALT_WORKERS asks, a pool the caller owns, or this thread alone
 *   chain     store, state, BFT, modules, state machine, block processor (node/open-chain.ts)
 *   services  from the node config (node/node-services.ts): plugins, transaction pool, block
 *             production, block receive, RPC registry and server, legacy API; without them the
 *             node is a chain (replay, benchmarks, tests)
 * Assembling starts nothing that runs by itself (no timer, no socket); the runtime starts and
 * stops the services in its order.
 */
import type { Block } from './chain/block.js';
import type { ChainConfig } from './config/lisk-config.js';
import { silentLogger, type Logger } from './logger.js';
import { NodeMetrics } from './metrics/index.js';
import { assembleNodeServices, type NodeServices, type NodeServicesOptions } from './node/node-services.js';
import { openNodeWorkers, type NodeWorkers, type WorkersChoice } from './node/node-workers.js';
import { openChain, type OpenChain } from './node/open-chain.js';
import { loadPlugins } from './plugins/load-plugins.js';

export { createChainForger, type ChainForger, type ChainForgerOptions } from './node/chain-forger.js';
export { transactionPoolVerifier, type NodeServices, type NodeServicesOptions } from './node/node-services.js';
export { offThreadWork, type NodeWorkers, type OffThreadTuning, type OffThreadWork, type WorkersChoice } from './node/node-workers.js';
export { checkStoredGenesis, createBlockExecutor, openChain, type OpenChain, type OpenChainOptions } from './node/open-chain.js';

export interface AssembleNodeOptions {
  readonly dataPath: string;
  readonly chainConfig: ChainConfig;
  readonly genesisBlock: Block;
  readonly logger?: Logger;
  /** Unix seconds; injectable for tests. */
  readonly now?: () => number;
  /** Where the heavy work of block processing runs; this thread alone by default. */
  readonly workers?: WorkersChoice;
  /** The services of a running node, from its config; without them the node is its chain alone. */
  readonly services?: NodeServicesOptions;
}

export interface AssembledNode {
  readonly dataPath: string;
  readonly chain: OpenChain;
  readonly workers: NodeWorkers | undefined;
  readonly services: NodeServices | undefined;
  /** Closes the chain, then the pool the node opened. Stop the services first. */
  close(): Promise<void>;
}

/**
 * Assembles a node in the order the running node has always been built: plugins loaded, pool
 * opened, chain opened (genesis executed on a new store), then the services. On failure, what
 * was opened is closed again before the error is rethrown.
 */
export async function assembleNode(
  options: AssembleNodeOptions & { readonly services: NodeServicesOptions },
): Promise<AssembledNode & { readonly services: NodeServices }>;
export async function assembleNode(options: AssembleNodeOptions): Promise<AssembledNode>;
export async function assembleNode(options: AssembleNodeOptions): Promise<AssembledNode> {
  const logger = options.logger ?? silentLogger;
  const { dataPath, chainConfig } = options;
  const opened: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const closeOne of opened.splice(0).reverse()) await closeOne();
  };
  try {
    const plugins = options.services && (await loadPlugins(options.services.config.plugins, { logger, baseDir: dataPath }));
    const workers = openNodeWorkers(options.workers ?? 'main-thread', { dataPath, logger });
    if (workers !== undefined) opened.push(() => workers.close());
    // A running node keeps one metric registry (src/metrics/); a bare chain has none.
    const metrics = options.services && new NodeMetrics();
    const chain = await openChain({
      dataPath,
      config: chainConfig,
      genesisBlock: options.genesisBlock,
      logger,
      now: options.now,
      signatureVerifier: workers?.signatureVerifier,
      stateTreeUpdater: workers?.stateTreeUpdater,
      popVerifiers: workers?.popVerifiers,
      certificateVerifiers: workers?.certificateVerifiers,
      onBlockTimed: metrics && ((phases) => metrics.recordBlockPhases(phases)),
      saveStateTreeOnClose: options.services !== undefined,
      extraModules:
        plugins &&
        ((mainchain) => plugins.createModules({ mainchain, genesisConfig: chainConfig.genesis, moduleConfigs: chainConfig.modules })),
    });
    opened.push(() => chain.close());
    const services =
      plugins &&
      options.services &&
      assembleNodeServices(
        { dataPath, genesisConfig: chainConfig.genesis, chain, workers, plugins, logger, now: options.now, metrics },
        options.services,
      );
    return { dataPath, chain, workers, services, close };
  } catch (error) {
    await close();
    throw error;
  }
}
