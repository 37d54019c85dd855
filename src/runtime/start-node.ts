import { readFileSync } from 'node:fs';
import type { NodeConfigPlan } from '../config/resolve-node-config.js';
import { BlockReceiver } from '../engine/block-receiver.js';
import type { ProcessedBlock } from '../engine/chain-processor.js';
import type { Forger } from '../engine/generator/forger.js';
import { parseTransactionPoolConfig } from '../engine/txpool/config.js';
import { CoalescingPoolVerifier } from '../engine/txpool/coalescing-pool-verifier.js';
import { StateMachinePoolVerifier, tipOf } from '../engine/txpool/pool-verifier.js';
import { TransactionPool } from '../engine/txpool/transaction-pool.js';
import { readBootstrapTransactions } from '../genesis/devnet/devnet-bootstrap.js';
import type { Logger } from '../logger.js';
import { createChainForger, openChain, type OpenChain } from '../node.js';
import { genesisInfoJSON } from '../rpc/endpoints/node-info.js';
import { NodeMetrics } from '../rpc/endpoints/node-metrics.js';
import { loadPlugins } from '../plugins/load-plugins.js';
import {
  APP_READY,
  APP_SHUTDOWN,
  blockHeaderEventPayload,
  NODE_EVENTS,
  CHAIN_DELETE_BLOCK,
  CHAIN_FORKED,
  CHAIN_NEW_BLOCK,
  CHAIN_VALIDATORS_CHANGED,
  newTransactionEventPayload,
  TXPOOL_NEW_TRANSACTION,
  validatorsChangedPayload,
} from '../rpc/endpoints/engine-events.js';
import { createGeneratorEndpoints } from '../rpc/endpoints/generator-endpoints.js';
import { GeneratorControl } from '../engine/generator/generator-control.js';
import { createTxpoolEndpoints } from '../rpc/endpoints/txpool-endpoints.js';
import { IpcTransport } from '../rpc/ipc-transport.js';
import { buildRegistry } from '../rpc/registry-builder.js';
import { RpcServer } from '../rpc/server.js';
import { nativeAvailable, nativeStatus } from '../native/index.js';
import { openWorkerPool, PoolSignatureVerifier, PoolStateTreeUpdater, WORKERS_ENV } from '../workers/index.js';
import { startLegacyApi } from '../legacy-api/index.js';
import { validatorStore } from '../modules/pos/stores.js';
import { DataDirLock } from './data-dir-lock.js';
import { importGeneratorKeysFile, storedPlainKeypairs } from './generator-keys-import.js';

export interface StartNodeOptions {
  readonly logger: Logger;
  /** The data directory's lock, when the caller took it before writing the config there. */
  readonly lock?: DataDirLock;
  /** Unix seconds; injectable for tests. */
  readonly now?: () => number;
}

/** A started node; `stop` is idempotent and leaves the store closed and consistent. */
export interface RunningNode {
  readonly chain: OpenChain;
  readonly pool: TransactionPool;
  readonly forger: Forger;
  /** Where blocks from outside (peer sync) enter: fork choice, then apply, switch or ignore. */
  readonly receiver: BlockReceiver;
  readonly rpc: RpcServer;
  readonly dataPath: string;
  stop(): Promise<void>;
}

/**
 * Starts a node from a resolved config (the `start` command's work after the config is
 * settled): takes the data directory's lock, opens the chain (running genesis on a new store),
 * loads the generator keys, and starts the pool, block production and the RPC transports.
 * Everything the node does is published to RPC subscribers as lisk-sdk's events.
 */
export async function startNode(plan: NodeConfigPlan, options: StartNodeOptions): Promise<RunningNode> {
  const { logger } = options;
  const { config } = plan;
  const lock = options.lock ?? DataDirLock.acquire(plan.dataPath);
  const cleanups: (() => Promise<void> | void)[] = [() => lock.release()];
  const cleanUp = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const plugins = await loadPlugins(config.plugins, { logger, baseDir: plan.dataPath });
    const workers = openWorkerPool({ workerData: { dataPath: plan.dataPath } });
    if (workers !== undefined) cleanups.push(() => workers.close());
    logger.info(
      { threads: workers?.threads ?? 0 },
      workers ? 'Worker pool started' : `No worker threads (${WORKERS_ENV}=0): all work on the main thread`,
    );
    // Once per start: which SHA-256 and SMT the node hashes with (native/README.md).
    logger.info({ native: nativeAvailable }, nativeStatus);
    const signatureVerifier = workers ? new PoolSignatureVerifier(workers) : undefined;
    const chain = await openChain({
      dataPath: plan.dataPath,
      config: plan.chainConfig,
      genesisBlock: plan.genesisBlock,
      logger,
      now: options.now,
      signatureVerifier,
      stateTreeUpdater: workers && new PoolStateTreeUpdater(workers),
      extraModules: (mainchain) =>
        plugins.createModules({ mainchain, genesisConfig: plan.chainConfig.genesis, moduleConfigs: plan.chainConfig.modules }),
    });
    cleanups.push(() => chain.close());
    const genesis = plan.chainConfig.genesis;
    const metrics = new NodeMetrics();

    const pool = new TransactionPool({
      config: parseTransactionPoolConfig(config.transactionPool, genesis.maxTransactionsSize),
      // With workers, transactions posted at the same time are verified as one batch (their signatures in the pool).
      verifier: signatureVerifier
        ? new CoalescingPoolVerifier(new StateMachinePoolVerifier(chain.stateMachine, signatureVerifier))
        : new StateMachinePoolVerifier(chain.stateMachine),
      tip: tipOf(chain),
      logger,
    });

    let rpc: RpcServer | undefined;
    const publish = (event: string, data: unknown): void => {
      rpc?.publish(event, data);
      plugins.notify(event, data);
    };
    const { forger, generatorStore } = createChainForger(chain, {
      genesisConfig: genesis,
      logger,
      now: options.now,
      candidates: () => pool.candidates(),
      onInvalidTransactions: (transactions) => {
        for (const transaction of transactions) pool.remove(transaction, { code: 'invalid', message: 'Invalid in a block.' });
      },
      onBlockProcessed: (processed) => onBlock(processed),
    });

    const onBlock = (processed: ProcessedBlock): void => {
      metrics.recordBlock(processed.block.transactions.length);
      void pool.onNewBlock(processed.block).catch((error) => logger.error({ err: error }, 'Pool update after a block failed'));
      publish(CHAIN_NEW_BLOCK, blockHeaderEventPayload(processed.block.header));
      const { height } = processed.block.header;
      if (chain.bft.parametersChangeAt(chain.stateDb.engineReader, height + 1)) {
        const { precommitThreshold, certificateThreshold, validators } = chain.bft.getParameters(chain.stateDb.engineReader, height + 1);
        publish(CHAIN_VALIDATORS_CHANGED, validatorsChangedPayload(precommitThreshold, certificateThreshold, validators));
      }
    };
    pool.addListener({ transactionAdded: (transaction) => publish(TXPOOL_NEW_TRANSACTION, newTransactionEventPayload(transaction)) });

    // Received blocks get the same bookkeeping as generated ones; a deleted block's transactions
    // go back to the pool (lisk-sdk engine: generator.onDeleteBlock, chain_deleteBlock, chain_forked).
    const receiver = new BlockReceiver({
      processor: chain.processor,
      chainStore: chain.chainStore,
      clock: chain.bft,
      maxTransactionsSize: genesis.maxTransactionsSize,
      logger,
    });
    receiver.addListener({
      blockApplied: (processed) => forger.afterBlock(processed),
      blockDeleted: (block) => {
        void pool.onDeleteBlock(block).catch((error) => logger.error({ err: error }, 'Pool update after a deleted block failed'));
        publish(CHAIN_DELETE_BLOCK, blockHeaderEventPayload(block.header));
      },
      forkDetected: (block) => publish(CHAIN_FORKED, blockHeaderEventPayload(block.header)),
    });

    // As lisk-sdk: the keys file is imported into the generator store, then every stored plain
    // key is enabled; encrypted keys wait for generator_updateStatus with their password.
    const plainKeypairs = plan.generatorKeysFile
      ? importGeneratorKeysFile(plan.generatorKeysFile, generatorStore)
      : storedPlainKeypairs(generatorStore);
    for (const keypair of plainKeypairs) forger.enable(keypair);

    const pluginRpc = plugins.attach({
      chainID: genesis.chainID,
      chainStore: chain.chainStore,
      moduleState: () => chain.stateDb.moduleReader,
      publish,
    });
    const { registry } = buildRegistry({
      chain,
      chainID: genesis.chainID,
      metrics,
      stateProver: chain.stateDb,
      // Heavy reads (long spans, many IDs, proofs) run in the pool on read-only LMDB views.
      readOffload: workers && { pool: workers, dataPath: plan.dataPath },
      now: options.now,
      logger,
      chainLimits: { maxIdsPerRequest: config.rpc.maxIDsPerRequest, maxHeightSpan: config.rpc.maxHeightSpan },
      nodeInfo: {
        version: config.system.version,
        networkVersion: config.network.version,
        genesis: genesisInfoJSON(genesis, config.genesis.block),
        network: config.network,
        syncing: () => false, // standalone: with no peers the node counts as synced
        unconfirmedTransactions: () => pool.size,
      },
      extraMethods: [
        ...createTxpoolEndpoints({
          pool,
          stateMachine: chain.stateMachine,
          chainStore: chain.chainStore,
          moduleState: () => chain.stateDb.moduleReader,
          maxTransactionBytes: genesis.maxTransactionsSize,
        }),
        ...createGeneratorEndpoints(
          new GeneratorControl({
            store: generatorStore,
            forger,
            chainStore: chain.chainStore,
            blockTime: genesis.blockTime,
            syncing: () => false,
            logger,
          }),
        ),
        ...pluginRpc.methods,
      ],
      events: [...NODE_EVENTS, ...pluginRpc.events],
    });
    rpc = new RpcServer(
      {
        modes: config.rpc.modes,
        host: config.rpc.host,
        port: config.rpc.port,
        allowedMethods: config.rpc.allowedMethods,
        accessControlAllowOrigin: config.rpc.accessControlAllowOrigin,
        maxBodyBytes: config.rpc.maxBodyBytes,
        maxBatchSize: config.rpc.maxBatchSize,
      },
      registry,
      logger,
    );
    if (config.rpc.modes.includes('ipc')) {
      rpc.addTransport(new IpcTransport(rpc.dispatcher, { dataPath: plan.dataPath, maxMessageBytes: config.rpc.maxBodyBytes }, logger));
    }
    cleanups.push(() => plugins.stop());
    await plugins.start(registry);
    await rpc.start();
    const server = rpc;
    cleanups.push(() => server.stop());

    pool.start();
    cleanups.push(() => pool.stop());
    if (plan.bootstrapTransactionsFile && chain.chainStore.tipHeight() === chain.chainStore.genesisHeight()) {
      const transactions = readBootstrapTransactions(JSON.parse(readFileSync(plan.bootstrapTransactionsFile, 'utf8')));
      for (const transaction of transactions) await pool.add(transaction);
      logger.info({ count: transactions.length }, 'Submitted the network bootstrap transactions');
    }
    if (config.legacyApi.enabled) {
      // Lisk Core 1.x–3.x forging API (issue 8, cli_migration.md §6), on the same Forger and store.
      const legacyApi = await startLegacyApi(config.legacyApi, {
        forger,
        store: generatorStore,
        chainID: genesis.chainID,
        isValidator: (address) => validatorStore.get(chain.stateDb.moduleReader, address) !== undefined,
        status: {
          height: () => chain.chainStore.tipHeight(),
          tipId: () => chain.chainStore.getHeaderByHeight(chain.chainStore.tipHeight())?.id.toString('hex') ?? '',
          syncing: () => false, // standalone: with no peers the node counts as synced
          networkHeight: () => 0,
          poolSize: () => pool.size,
        },
        dataPath: plan.dataPath,
        hashOnions: { store: chain.modules.random.hashOnionStore, state: () => chain.stateDb.moduleReader },
        logger,
      });
      // Registered before the Forger's stop, so it runs after it: forger_info.json gets the last block's info.
      cleanups.push(() => legacyApi.stop());
    }
    forger.start();
    cleanups.push(() => forger.stop());

    logger.info(
      { dataPath: plan.dataPath, height: chain.chainStore.tipHeight(), rpc: `${config.rpc.host}:${server.port}`, generators: 'enabled' },
      'Node started',
    );
    publish(APP_READY, {});

    let stopping: Promise<void> | undefined;
    return {
      chain,
      pool,
      forger,
      receiver,
      rpc: server,
      dataPath: plan.dataPath,
      stop: () => {
        stopping ??= (async () => {
          publish(APP_SHUTDOWN, {});
          await cleanUp();
          logger.info({}, 'Node stopped');
        })();
        return stopping;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
