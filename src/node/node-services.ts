/**
 * The services part of the composition root (src/node.ts): what a running node adds to its
 * chain, from its config. The transaction pool, block production with the configured keys, the
 * block-receive path, the RPC registry and server, the plugins' hooks and the legacy forging API,
 * wired so that everything the node does is published as lisk-sdk's events. Nothing here starts
 * (no timer, no socket): the runtime starts and stops the parts in its order.
 */
import { readFileSync } from 'node:fs';
import type { Block } from '../chain/block.js';
import type { GenesisConfig } from '../config/genesis-config.js';
import type { NodeConfig } from '../config/node-config.js';
import type { SignatureVerifier } from '../crypto/signature-verifier.js';
import { BlockReceiver } from '../engine/block-receiver.js';
import type { ProcessedBlock } from '../engine/chain-processor.js';
import type { Forger } from '../engine/generator/forger.js';
import { GeneratorControl } from '../engine/generator/generator-control.js';
import { importGeneratorKeysFile, storedPlainKeypairs } from '../engine/generator/generator-keys-import.js';
import { parseTransactionPoolConfig } from '../engine/txpool/config.js';
import { CoalescingPoolVerifier } from '../engine/txpool/coalescing-pool-verifier.js';
import { StateMachinePoolVerifier, tipOf, type PoolTransactionVerifier } from '../engine/txpool/pool-verifier.js';
import { TransactionPool } from '../engine/txpool/transaction-pool.js';
import { readBootstrapTransactions } from '../genesis/devnet/devnet-bootstrap.js';
import { startLegacyApi, type RunningLegacyApi } from '../legacy-api/index.js';
import { initLegacyBrackets } from '../legacy-chain/index.js';
import type { Logger } from '../logger.js';
import { MetricsServer, NodeMetrics } from '../metrics/index.js';
import { validatorStore } from '../modules/pos/stores.js';
import type { LoadedPlugins } from '../plugins/loaded-plugins.js';
import {
  blockHeaderEventPayload,
  CHAIN_DELETE_BLOCK,
  CHAIN_FORKED,
  CHAIN_NEW_BLOCK,
  CHAIN_VALIDATORS_CHANGED,
  NETWORK_EVENTS,
  NETWORK_NEW_BLOCK,
  NETWORK_NEW_TRANSACTION,
  NODE_EVENTS,
  newTransactionEventPayload,
  transactionAnnouncementPayload,
  TXPOOL_NEW_TRANSACTION,
  validatorsChangedPayload,
} from '../rpc/endpoints/engine-events.js';
import { createGeneratorEndpoints } from '../rpc/endpoints/generator-endpoints.js';
import { createNetworkEndpoints, type NetworkView } from '../rpc/endpoints/network-endpoints.js';
import { genesisInfoJSON } from '../rpc/endpoints/node-info.js';
import { createTxpoolEndpoints } from '../rpc/endpoints/txpool-endpoints.js';
import { IpcTransport } from '../rpc/ipc-transport.js';
import { buildRegistry } from '../rpc/registry-builder.js';
import type { RpcRegistry } from '../rpc/registry.js';
import { RpcServer } from '../rpc/server.js';
import { createChainForger } from './chain-forger.js';
import { NodeNetwork } from './node-network.js';
import { pooledBlocksFromIdReader } from './pooled-blocks-from-id.js';
import type { NodeWorkers } from './node-workers.js';
import type { OpenChain } from './open-chain.js';

/** The services of a running node, from its config; each part can be left out. */
export interface NodeServicesOptions {
  readonly config: NodeConfig;
  /** The keys file whose keys are imported into the generator store at start. */
  readonly generatorKeysFile?: string;
  /** The network's bootstrap transactions, submitted to the pool of a chain still at genesis. */
  readonly bootstrapTransactionsFile?: string;
  /** false: no RPC server (no port, no IPC socket); the registry still serves the plugins. */
  readonly rpc?: boolean;
  /** false: no block production (no keys, no generator endpoints, no legacy API). */
  readonly forger?: boolean;
  /** true: the node joins the P2P network of its config (`network.*`) and syncs from its peers. */
  readonly p2p?: boolean;
}

/** The parts of a running node besides its chain; `src/runtime/start-node.ts` starts and stops them. */
export interface NodeServices {
  readonly pool: TransactionPool;
  readonly forger: Forger | undefined;
  /** Where blocks from outside (peer sync) enter: fork choice, then apply, switch or ignore. */
  readonly receiver: BlockReceiver;
  readonly plugins: LoadedPlugins;
  readonly registry: RpcRegistry;
  readonly rpc: RpcServer | undefined;
  /** The node on the P2P network, when the options ask for it; the runtime starts it. */
  readonly network: NodeNetwork | undefined;
  /** Publishes a node event to RPC subscribers and to the plugins. */
  publish(event: string, data: unknown): void;
  /** Adds the network's bootstrap transactions to the pool when the chain is still at its genesis block. */
  submitBootstrapTransactions(): Promise<void>;
  /** Starts the legacy forging API; present when the config enables it (and the node produces blocks). */
  readonly startLegacyApi: (() => Promise<RunningLegacyApi>) | undefined;
  /** The node's metric registry, read by system_getMetricsReport and GET /metrics. */
  readonly metrics: NodeMetrics;
  /** `GET /metrics`, when the config's `metrics.enabled` asks for it; the runtime starts it. */
  readonly metricsServer: MetricsServer | undefined;
}

export interface NodeServicesContext {
  readonly dataPath: string;
  readonly genesisConfig: GenesisConfig;
  readonly chain: OpenChain;
  readonly workers: NodeWorkers | undefined;
  readonly plugins: LoadedPlugins;
  readonly logger: Logger;
  readonly now?: () => number;
  /** The registry the chain's block timings already go to; a new one when absent. */
  readonly metrics?: NodeMetrics;
}

/**
 * The pool's transaction verifier over `chain`: the state machine, and with a pool behind
 * `signatureVerifier`, transactions posted at the same time verified as one batch.
 */
export function transactionPoolVerifier(
  chain: Pick<OpenChain, 'stateMachine'>,
  signatureVerifier?: SignatureVerifier,
): PoolTransactionVerifier {
  return signatureVerifier
    ? new CoalescingPoolVerifier(new StateMachinePoolVerifier(chain.stateMachine, signatureVerifier))
    : new StateMachinePoolVerifier(chain.stateMachine);
}

/** Builds the services of `options` around an open chain, in the order the node has always built them. */
export function assembleNodeServices(context: NodeServicesContext, options: NodeServicesOptions): NodeServices {
  const { chain, workers, plugins, logger, dataPath } = context;
  const { config } = options;
  const genesis = context.genesisConfig;
  const metrics = context.metrics ?? new NodeMetrics();
  // As lisk-sdk's engine at start: every configured legacy bracket gets its stored state.
  initLegacyBrackets(chain.legacyStore, config.legacy.brackets);

  const pool = new TransactionPool({
    config: parseTransactionPoolConfig(config.transactionPool, genesis.maxTransactionsSize),
    verifier: transactionPoolVerifier(chain, workers?.transactionSignatureVerifier),
    tip: tipOf(chain),
    logger,
  });

  let rpc: RpcServer | undefined;
  let network: NodeNetwork | undefined;
  const syncing = (): boolean => network?.syncing ?? false;
  const publish = (event: string, data: unknown): void => {
    rpc?.publish(event, data);
    plugins.notify(event, data);
  };
  const onBlock = (processed: ProcessedBlock): void => {
    metrics.recordBlock(processed.block.transactions.length);
    void pool.onNewBlock(processed.block).catch((error) => logger.error({ err: error }, 'Pool update after a block failed'));
    publish(CHAIN_NEW_BLOCK, blockHeaderEventPayload(processed.block.header));
    network?.tipChanged();
    const { height } = processed.block.header;
    if (chain.bft.parametersChangeAt(chain.stateDb.engineReader, height + 1)) {
      const { precommitThreshold, certificateThreshold, validators } = chain.bft.getParameters(chain.stateDb.engineReader, height + 1);
      publish(CHAIN_VALIDATORS_CHANGED, validatorsChangedPayload(precommitThreshold, certificateThreshold, validators));
    }
  };
  const production =
    options.forger === false
      ? undefined
      : createChainForger(chain, {
          genesisConfig: genesis,
          logger,
          now: context.now,
          candidates: () => pool.candidates(),
          onInvalidTransactions: (transactions) => {
            for (const transaction of transactions) pool.remove(transaction, { code: 'invalid', message: 'Invalid in a block.' });
          },
          onBlockProcessed: onBlock,
          onBlockGenerated: (block) => network?.blockGenerated(block),
          isSyncing: () => syncing(),
        });
  const forger = production?.forger;
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
  const chainListener = {
    blockApplied: (processed: ProcessedBlock) => (forger ? forger.afterBlock(processed) : onBlock(processed)),
    blockDeleted: (block: Block) => {
      metrics.recordRevert();
      void pool.onDeleteBlock(block).catch((error) => logger.error({ err: error }, 'Pool update after a deleted block failed'));
      publish(CHAIN_DELETE_BLOCK, blockHeaderEventPayload(block.header));
      network?.tipChanged();
    },
  };
  receiver.addListener({
    ...chainListener,
    forkDetected: (block) => publish(CHAIN_FORKED, blockHeaderEventPayload(block.header)),
  });
  if (options.p2p === true) {
    network = new NodeNetwork({
      config,
      genesisConfig: genesis,
      chain,
      pool,
      receiver,
      commitPool: production?.commitPool,
      chainListener,
      logger,
      // Answers to syncing peers (up to 103 blocks each) are built in the pool.
      blocksFromIdReader: workers && pooledBlocksFromIdReader({ pool: workers.pool, dataPath, tip: () => chain.processor.tipHeader() }),
      now: context.now,
      onNetworkBlock: (block) => publish(NETWORK_NEW_BLOCK, blockHeaderEventPayload(block.header)),
      onTransactionsAnnounced: (ids) => publish(NETWORK_NEW_TRANSACTION, transactionAnnouncementPayload(ids)),
    });
  }

  if (production) {
    // As lisk-sdk: the keys file is imported into the generator store, then every stored plain
    // key is enabled; encrypted keys wait for generator_updateStatus with their password.
    const plainKeypairs = options.generatorKeysFile
      ? importGeneratorKeysFile(options.generatorKeysFile, production.generatorStore)
      : storedPlainKeypairs(production.generatorStore);
    for (const keypair of plainKeypairs) production.forger.enable(keypair);
  }

  const pluginRpc = plugins.attach({
    chainID: genesis.chainID,
    chainStore: chain.chainStore,
    moduleState: () => chain.stateDb.moduleReader,
    publish,
  });
  const built = buildRegistry({
    chain,
    chainID: genesis.chainID,
    metrics,
    stateProver: chain.stateDb,
    // Heavy reads (long spans, many IDs, proofs) run in the pool on read-only LMDB views.
    readOffload: workers && { pool: workers.pool, dataPath },
    now: context.now,
    logger,
    chainLimits: { maxIdsPerRequest: config.rpc.maxIDsPerRequest, maxHeightSpan: config.rpc.maxHeightSpan },
    legacy: { store: chain.legacyStore, brackets: config.legacy.brackets },
    nodeInfo: {
      version: config.system.version,
      networkVersion: config.network.version,
      genesis: genesisInfoJSON(genesis, config.genesis.block),
      network: config.network,
      syncing,
      unconfirmedTransactions: () => pool.size,
    },
    extraMethods: [
      ...createTxpoolEndpoints({
        pool,
        stateMachine: chain.stateMachine,
        chainStore: chain.chainStore,
        moduleState: () => chain.stateDb.moduleReader,
        maxTransactionBytes: genesis.maxTransactionsSize,
        workAhead: chain.requestWorkAhead,
      }),
      ...(production
        ? createGeneratorEndpoints(
            new GeneratorControl({
              store: production.generatorStore,
              forger: production.forger,
              chainStore: chain.chainStore,
              blockTime: genesis.blockTime,
              syncing,
              logger,
            }),
          )
        : []),
      ...(options.p2p === true ? createNetworkEndpoints(() => networkView(network)) : []),
      ...pluginRpc.methods,
    ],
    events: [...NODE_EVENTS, ...(options.p2p === true ? NETWORK_EVENTS : []), ...pluginRpc.events],
  });
  const { registry } = built;
  // Pruned events must not outlive their rows in the answers chain_getEvents keeps as JSON.
  chain.processor.onEventsPruned((height) => built.dropEventsUpTo(height));
  if (options.rpc !== false) {
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
      metrics,
    );
    rpc.serveReadiness({
      maxSlotsBehind: config.rpc.readyMaxSlotsBehind,
      state: () => {
        const tip = chain.processor.tipHeader();
        const now = context.now?.() ?? Math.floor(Date.now() / 1000);
        return { syncing: syncing(), height: tip.height, slotsBehind: chain.bft.slotNumber(now) - chain.bft.slotNumber(tip.timestamp) };
      },
    });
    if (config.rpc.modes.includes('ipc')) {
      rpc.addTransport(
        new IpcTransport(rpc.dispatcher.forTransport('ipc'), { dataPath, maxMessageBytes: config.rpc.maxBodyBytes }, logger),
      );
    }
  }
  const metricsServer = watchNode(metrics, { config, chain, workers, rpc, network: () => network, syncing, logger });

  const submitBootstrapTransactions = async (): Promise<void> => {
    const file = options.bootstrapTransactionsFile;
    if (file === undefined || chain.chainStore.tipHeight() !== chain.chainStore.genesisHeight()) return;
    const transactions = readBootstrapTransactions(JSON.parse(readFileSync(file, 'utf8')));
    for (const transaction of transactions) await pool.add(transaction);
    logger.info({ count: transactions.length }, 'Submitted the network bootstrap transactions');
  };

  const legacyApi =
    production && config.legacyApi.enabled
      ? () =>
          // Lisk Core 1.x–3.x forging API, on the same Forger and store.
          startLegacyApi(config.legacyApi, {
            forger: production.forger,
            store: production.generatorStore,
            chainID: genesis.chainID,
            isValidator: (address) => validatorStore.get(chain.stateDb.moduleReader, address) !== undefined,
            tip: () => chain.chainStore.getHeaderByHeight(chain.chainStore.tipHeight()),
            status: {
              height: () => chain.chainStore.tipHeight(),
              tipId: () => chain.chainStore.getHeaderByHeight(chain.chainStore.tipHeight())?.id.toString('hex') ?? '',
              syncing,
              networkHeight: () => networkHeight(network),
              poolSize: () => pool.size,
            },
            dataPath,
            hashOnions: { store: chain.modules.random.hashOnionStore, state: () => chain.stateDb.moduleReader },
            logger,
          })
      : undefined;

  return {
    pool,
    forger,
    receiver,
    plugins,
    registry,
    rpc,
    network,
    publish,
    submitBootstrapTransactions,
    startLegacyApi: legacyApi,
    metrics,
    metricsServer,
  };
}

/**
 * Points the metric registry's state gauges at the node's parts (read at scrape time only) and
 * builds the `GET /metrics` server when the config enables it. Process metrics (event loop, GC,
 * memory) are collected when metrics are served, here or through lisk-sdk's `system.enableMetrics`.
 */
function watchNode(
  metrics: NodeMetrics,
  parts: {
    readonly config: NodeConfig;
    readonly chain: OpenChain;
    readonly workers: NodeWorkers | undefined;
    readonly rpc: RpcServer | undefined;
    readonly network: () => NodeNetwork | undefined;
    readonly syncing: () => boolean;
    readonly logger: Logger;
  },
): MetricsServer | undefined {
  const { config, chain, workers, rpc } = parts;
  metrics.watch({
    workers: workers?.pool,
    rpc,
    store: { stats: () => chain.env.getStats() as { mapSize: number; pageSize: number; lastPageNumber: number } },
    network: {
      syncing: parts.syncing,
      peers: () => {
        const p2p = parts.network()?.network;
        if (p2p === undefined) return { inbound: 0, outbound: 0, bannedIPs: 0, bans: 0 };
        const stats = p2p.getStats();
        let bans = 0;
        for (const record of Object.values(stats.banning.bannedPeers)) bans += record.banCount;
        return { inbound: stats.incoming.count, outbound: stats.outgoing.count, bannedIPs: p2p.bannedIPs().length, bans };
      },
    },
  });
  if (config.metrics.enabled || config.system.enableMetrics === true) metrics.collectProcessMetrics();
  if (!config.metrics.enabled) return undefined;
  return new MetricsServer(metrics, { host: config.metrics.host, port: config.metrics.port }, parts.logger.child({ component: 'metrics' }));
}

/** The highest tip height the connected peers announced (the legacy API's network height). */
function networkHeight(network: NodeNetwork | undefined): number {
  let height = 0;
  for (const peer of network?.network?.connectedPeers() ?? []) height = Math.max(height, peer.options?.height ?? 0);
  return height;
}

/** The P2P network as the network_* endpoints read it. */
function networkView(network: NodeNetwork | undefined): NetworkView | undefined {
  const p2p = network?.network;
  if (!p2p) return undefined;
  return {
    connectedPeers: () => p2p.connectedPeers(),
    disconnectedPeers: () => p2p.disconnectedPeers(),
    stats: () => p2p.getStats(),
  };
}
