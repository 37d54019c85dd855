/**
 * A running node's lifecycle: the data directory's lock, the start order of the parts the
 * composition root (src/node.ts) assembles, the signals that stop it, and the stop order (the
 * start order reversed). Which parts a node has, and how they are wired, is node.ts's business.
 */
import { commitNodeConfig, type NodeConfigPlan } from '../config/resolve-node-config.js';
import type { StoreWriteError } from '../errors.js';
import type { Logger } from '../logger.js';
import { assembleNode, checkStoredGenesis, type AssembledNode, type NodeServices } from '../node.js';
import { APP_READY, APP_SHUTDOWN } from '../rpc/endpoints/engine-events.js';
import { ControllerPidFile } from './controller-pid-file.js';
import { DataDirLock } from './data-dir-lock.js';

export interface StartNodeOptions {
  readonly logger: Logger;
  /** The data directory's lock, when the caller took it before writing the config there. */
  readonly lock?: DataDirLock;
  /** Unix seconds; injectable for tests. */
  readonly now?: () => number;
}

/** A started node; `stop` is idempotent and leaves the store closed and consistent. */
export interface RunningNode extends Omit<AssembledNode, 'close'> {
  readonly services: NodeServices;
  stop(): Promise<void>;
}

/**
 * Starts a node from a resolved config (the `start` command's work after the config is
 * settled): takes the data directory's lock, writes Lisk's `tmp/pids/controller.pid`, assembles
 * the node with every service (the chain opened, genesis run on a new store, generator keys
 * loaded), then starts the metrics server, the plugins, the RPC transports, the pool, the P2P
 * network, the legacy API and block production, in that order.
 */
export async function startNode(plan: NodeConfigPlan, options: StartNodeOptions): Promise<RunningNode> {
  const { logger } = options;
  const { config } = plan;
  const lock = options.lock ?? DataDirLock.acquire(plan.dataPath);
  const stops: (() => Promise<void> | void)[] = [() => lock.release()];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    // Lisk's CLI (`lisk-core endpoint:invoke -d <dataPath>`) checks this file before it connects.
    const pidFile = ControllerPidFile.write(plan.dataPath, logger);
    stops.push(() => pidFile.remove());
    const node = await assembleNode({
      dataPath: plan.dataPath,
      chainConfig: plan.chainConfig,
      genesisBlock: plan.genesisBlock,
      logger,
      now: options.now,
      workers: 'env',
      services: {
        config,
        generatorKeysFile: plan.generatorKeysFile,
        bootstrapTransactionsFile: plan.bootstrapTransactionsFile,
        p2p: true,
      },
    });
    stops.push(() => node.close());
    const { services } = node;
    const { plugins, registry, rpc, pool, forger } = services;

    if (services.metricsServer !== undefined) {
      const { metricsServer } = services;
      await metricsServer.start();
      stops.push(() => metricsServer.stop());
    }
    stops.push(() => plugins.stop());
    await plugins.start(registry);
    if (rpc !== undefined) {
      await rpc.start();
      stops.push(() => rpc.stop());
    }
    pool.start();
    stops.push(() => pool.stop());
    await services.submitBootstrapTransactions();
    const { network } = services;
    if (network !== undefined) {
      await network.start();
      stops.push(() => network.stop());
    }
    if (services.startLegacyApi !== undefined) {
      const legacyApi = await services.startLegacyApi();
      // Registered before the Forger's stop, so it runs after it: forger_info.json gets the last block's info.
      stops.push(() => legacyApi.stop());
    }
    if (forger !== undefined) {
      forger.start();
      stops.push(() => forger.stop());
    }

    logger.info(
      {
        dataPath: plan.dataPath,
        height: node.chain.chainStore.tipHeight(),
        rpc: `${config.rpc.host}:${rpc?.port}`,
        p2p: network?.network && `${config.network.host ?? '0.0.0.0'}:${network.network.port}`,
        metrics: services.metricsServer && `${config.metrics.host}:${services.metricsServer.port}`,
        generators: 'enabled',
      },
      'Node started',
    );
    services.publish(APP_READY, {});

    let stopping: Promise<void> | undefined;
    return {
      dataPath: node.dataPath,
      chain: node.chain,
      workers: node.workers,
      services,
      stop: () => {
        stopping ??= (async () => {
          services.publish(APP_SHUTDOWN, {});
          await stopAll();
          logger.info({}, 'Node stopped');
        })();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * The `start` command after its config is prepared: takes the data directory's lock before
 * writing anything there (so a second node changes nothing), keeps the config in it, starts the
 * node, and runs until SIGINT or SIGTERM, then stops it. A second signal while stopping ends
 * the process at once. A write the store could not commit stops the node the same way, and then
 * rejects with that StoreWriteError.
 */
export async function runNodeUntilSignal(plan: NodeConfigPlan, options: Omit<StartNodeOptions, 'lock'>): Promise<void> {
  const { logger } = options;
  const lock = DataDirLock.acquire(plan.dataPath);
  try {
    // A store of another chain is refused before --overwrite-config replaces the config beside it.
    await checkStoredGenesis(plan.dataPath, plan.genesisBlock);
    commitNodeConfig(plan);
  } catch (error) {
    lock.release();
    throw error;
  }
  const node = await startNode(plan, { ...options, lock });
  let storeWriteFailure: StoreWriteError | undefined;
  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      logger.info({ signal }, 'Stopping');
      process.removeAllListeners('SIGINT');
      process.removeAllListeners('SIGTERM');
      // A second signal while stopping ends the process at once.
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      node.stop().then(resolve, (error) => {
        logger.error({ err: error }, 'Stopping failed');
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    // A store that takes no more writes: the node stops cleanly and the command fails with it.
    node.chain.processor.onStoreWriteFailed((error) => {
      storeWriteFailure = error;
      logger.error({ code: error.code, err: error }, 'The store could not commit a write: stopping the node');
      stop('store write failure');
    });
  });
  if (storeWriteFailure !== undefined) throw storeWriteFailure;
}
