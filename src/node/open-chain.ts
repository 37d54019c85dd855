/**
 * The chain part of the composition root (src/node.ts): the LMDB store, the state database, BFT,
 * the modules, the state machine and the block processor over them, with genesis executed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { open, type RootDatabase } from 'lmdb';
import type { Block } from '../chain/block.js';
import { backupDataPath, backupEnvironment, backupTipHeight } from '../chain/chain-backup.js';
import { ChainStore } from '../chain/chain-store.js';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../chain/lmdb-environment.js';
import type { ChainConfig } from '../config/lisk-config.js';
import type { SignatureVerifier } from '../crypto/signature-verifier.js';
import { BlockExecutor, type BlockWorkAhead } from '../engine/block-executor.js';
import { assertStoredGenesis, ChainProcessor, type BlockPhaseTimes } from '../engine/chain-processor.js';
import { LegacyChainStore } from '../legacy-chain/index.js';
import { Bft } from '../engine/consensus/bft/bft.js';
import { StateMachine } from '../engine/state-machine/state-machine.js';
import { silentLogger, type Logger } from '../logger.js';
import type { Module } from '../modules/base/index.js';
import { createChainModules, type ChainModules } from '../modules/chain-modules.js';
import { StateDb, type StateTreeUpdater } from '../state/state-db.js';
import { CrossChainUpdateCommand } from '../modules/interoperability/index.js';
import { CertificateChecksAhead, type CertificateVerifiers } from './certificate-checks-ahead.js';
import type { PopVerifiers } from './node-workers.js';
import { PopChecksAhead } from './pop-checks-ahead.js';
import { stateTreeSnapshotPath } from '../state/state-tree-snapshot.js';

export interface OpenChainOptions {
  readonly dataPath: string;
  readonly config: ChainConfig;
  readonly genesisBlock: Block;
  readonly logger?: Logger;
  /** Unix seconds; injectable for tests. */
  readonly now?: () => number;
  /** Custom modules (plugins) appended after the chain's modules, in the order returned. */
  readonly extraModules?: (mainchain: ChainModules) => readonly Module[];
  /**
   * Checks the signatures of each block's transactions in one batch (the worker pool in a node);
   * without it they are checked one by one on this thread, with the same results.
   */
  readonly signatureVerifier?: SignatureVerifier;
  /** Computes large state-tree updates in another thread (the worker pool in a node). */
  readonly stateTreeUpdater?: StateTreeUpdater;
  /**
   * Checks the proofs of possession a block registers before it executes, and those the
   * validateBLSKey endpoint is asked about (the worker pool in a node); without it they are
   * checked on this thread during execution, with the same results.
   */
  readonly popVerifiers?: PopVerifiers;
  /**
   * Checks the certificate signatures of a block's cross-chain updates before it executes (the
   * worker pool in a node); without it they are checked on this thread during execution, with the
   * same results.
   */
  readonly certificateVerifiers?: CertificateVerifiers;
  /** Told the phase times of every committed block (the node's metrics). */
  readonly onBlockTimed?: (phases: BlockPhaseTimes) => void;
  /**
   * Saves the state tree at `close` for the next open to adopt (a running node, whose restart
   * time it cuts); tools that open the chain for one job leave the data directory as it was.
   */
  readonly saveStateTreeOnClose?: boolean;
}

export interface OpenChain {
  readonly env: RootDatabase;
  readonly chainStore: ChainStore;
  /** The v3 history kept beside the chain (legacy brackets), in the same environment. */
  readonly legacyStore: LegacyChainStore;
  readonly stateDb: StateDb;
  readonly bft: Bft;
  readonly modules: ChainModules;
  readonly stateMachine: StateMachine;
  readonly processor: ChainProcessor;
  /**
   * The proofs of possession checked ahead of execution (with `popVerifiers`): the processor's
   * executor uses them, and so do the block generator and the dry-run endpoint.
   */
  readonly popChecks?: PopChecksAhead;
  /** The certificate signatures checked ahead of execution (with `certificateVerifiers`). */
  readonly certificateChecks?: CertificateChecksAhead;
  /** Everything computed ahead of a block's execution (the two above), for the executors. */
  readonly workAhead?: BlockWorkAhead;
  /** The same for a request that executes a transaction (txpool_dryRunTransaction), at the RPC class. */
  readonly requestWorkAhead?: BlockWorkAhead;
  close(): Promise<void>;
}

/**
 * Opens (or creates) the LMDB store in `dataPath`, builds the module set from the config, and
 * executes the genesis block when the store is empty (or checks it is the stored one).
 */
export async function openChain(options: OpenChainOptions): Promise<OpenChain> {
  const logger = options.logger ?? silentLogger;
  const { genesis } = options.config;
  mkdirSync(options.dataPath, { recursive: true });
  // One environment per data dir (src/chain/lmdb-environment.ts says why these options).
  const env = open({ path: chainEnvPath(options.dataPath), ...CHAIN_ENV_OPTIONS });
  try {
    const chainStore = new ChainStore(env);
    const treeStart = performance.now();
    const stateDb = new StateDb(env, options.stateTreeUpdater, stateTreeSnapshotPath(options.dataPath));
    logStateTreeOrigin(stateDb, performance.now() - treeStart, logger);
    const bft = new Bft(genesis.bftBatchSize, genesis.blockTime);
    // Lisk Core v4 chains carry the legacy module: registered when the genesis or config has it.
    const withLegacy = options.genesisBlock.assets.getAsset('legacy') !== undefined || 'legacy' in options.config.modules;
    // A mainchain or a sidechain, as the genesis chain ID says.
    const chainModules = createChainModules({ genesisConfig: genesis, moduleConfigs: options.config.modules, withLegacy });
    const extra = options.extraModules?.(chainModules) ?? [];
    const modules: ChainModules = extra.length === 0 ? chainModules : { ...chainModules, list: [...chainModules.list, ...extra] };
    const stateMachine = new StateMachine(modules.list, genesis.chainID, logger);
    const popChecks = options.popVerifiers && popChecksAhead(modules, options.config, options.popVerifiers);
    const certificateChecks = options.certificateVerifiers && certificateChecksAhead(modules, options.certificateVerifiers);
    const workAhead = allWorkAhead([popChecks, certificateChecks]);
    const requestWorkAhead = allWorkAhead([popChecks?.forRequests(), certificateChecks?.forRequests()]);
    const processor = new ChainProcessor({
      chainStore,
      stateDb,
      executor: createBlockExecutor({ stateMachine, bft }, options.signatureVerifier, workAhead),
      bft,
      genesisConfig: genesis,
      logger,
      now: options.now,
      signatureVerifier: options.signatureVerifier,
      onBlockTimed: options.onBlockTimed,
      keepEventsForHeights: options.config.keepEventsForHeights,
    });
    await processor.initGenesis(options.genesisBlock);
    const legacyStore = new LegacyChainStore(env);
    const backups = backupAtHeight(env, processor, options.dataPath, options.config.backupHeight ?? 0, logger);
    const close = async (): Promise<void> => {
      // A copy still running reads the environment: it ends first.
      await backups.settled();
      if (options.saveStateTreeOnClose === true) writeStateTreeSnapshot(stateDb, logger);
      await env.close();
    };
    return {
      env,
      chainStore,
      legacyStore,
      stateDb,
      bft,
      modules,
      stateMachine,
      processor,
      popChecks,
      certificateChecks,
      workAhead,
      requestWorkAhead,
      close,
    };
  } catch (error) {
    await env.close();
    throw error;
  }
}

/**
 * Refuses, before anything is written, a data directory whose store holds a chain other than the
 * one `genesisBlock` starts (the error `openChain` would throw). A store that does not open
 * read-only, or holds no chain yet, passes: `openChain` creates or reports it.
 */
export async function checkStoredGenesis(dataPath: string, genesisBlock: Block): Promise<void> {
  const path = chainEnvPath(dataPath);
  if (!existsSync(path)) return;
  let env: RootDatabase;
  try {
    env = open({ path, ...CHAIN_ENV_OPTIONS, readOnly: true });
  } catch {
    return;
  }
  try {
    let chainStore: ChainStore;
    try {
      chainStore = new ChainStore(env);
      if (chainStore.isEmpty()) return;
    } catch {
      return; // a store killed before its first commit: its named databases do not exist yet
    }
    assertStoredGenesis(chainStore, genesisBlock.header);
  } finally {
    await env.close();
  }
}

/**
 * Says where the state tree came from: the snapshot of the last clean shutdown, or the stored
 * values (its cost grows with the state) and why the snapshot could not be used; a recorded
 * snapshot whose file proved damaged is a warning.
 */
function logStateTreeOrigin(stateDb: StateDb, ms: number, logger: Logger): void {
  const origin = stateDb.treeOrigin;
  const fields = { nodes: stateDb.treeSize(), ms: Math.round(ms) };
  if (origin.from === 'snapshot') {
    logger.info(fields, 'State tree loaded from the snapshot of the last clean shutdown');
    return;
  }
  const message = `State tree rebuilt from ${origin.values} values (no valid snapshot: ${origin.snapshotUnusable})`;
  if (origin.snapshotDamaged === true) logger.warn(fields, message);
  else logger.info(fields, message);
}

/**
 * Saves the state tree for the next start. A failure costs only that start's time (the tree is
 * then rebuilt from the values), so it is logged and the shutdown goes on.
 */
function writeStateTreeSnapshot(stateDb: StateDb, logger: Logger): void {
  const started = performance.now();
  try {
    stateDb.writeSnapshot();
    logger.info({ nodes: stateDb.treeSize(), ms: Math.round(performance.now() - started) }, 'State tree snapshot written');
  } catch (error) {
    logger.warn({ err: error }, 'Failed to write the state tree snapshot; the next start rebuilds the tree');
  }
}

/**
 * A block executor over `chain`'s state machine and BFT, as the processor (with the node's
 * signature verifier) and the block generator (without one) hold it.
 */
export function createBlockExecutor(
  chain: Pick<OpenChain, 'stateMachine' | 'bft'>,
  signatureVerifier?: SignatureVerifier,
  workAhead?: BlockWorkAhead,
): BlockExecutor {
  return new BlockExecutor(chain.stateMachine, chain.bft, signatureVerifier, workAhead);
}

/**
 * The proof-of-possession checks of `verifiers`, handed to the validators module (its method
 * and the validateBLSKey endpoint) and run ahead of each block by the processor's executor.
 */
function popChecksAhead(modules: ChainModules, config: ChainConfig, verifiers: PopVerifiers): PopChecksAhead {
  const checks = new PopChecksAhead({
    modules: modules.list,
    blocks: verifiers.blocks,
    requests: verifiers.requests,
    // With useInvalidBLSKey a mainchain's genesis validators register no BLS key; on another
    // chain the few checks it then makes fall back to this thread, counted.
    genesisWithoutBlsKeys: config.modules.pos?.useInvalidBLSKey === true,
    onMiss: () => verifiers.onMiss(),
  });
  modules.validators.method.useProofOfPossessionChecks(checks);
  return checks;
}

/**
 * The certificate signature checks of `verifiers`, handed to every cross-chain update command
 * of the chain (mainchain or sidechain) and run ahead of each block by the executors.
 */
function certificateChecksAhead(modules: ChainModules, verifiers: CertificateVerifiers): CertificateChecksAhead {
  const checks = new CertificateChecksAhead({ modules: modules.list, ...verifiers });
  for (const module of modules.list) {
    for (const command of module.commands) {
      if (command instanceof CrossChainUpdateCommand) command.useCertificateSignatureChecks(checks);
    }
  }
  return checks;
}

/** One BlockWorkAhead doing every given one, side by side. */
function allWorkAhead(aheads: readonly (BlockWorkAhead | undefined)[]): BlockWorkAhead | undefined {
  const present = aheads.filter((ahead): ahead is BlockWorkAhead => ahead !== undefined);
  if (present.length <= 1) return present[0];
  return {
    prepare: async (work, genesis) => {
      await Promise.all(present.map((ahead) => ahead.prepare(work, genesis)));
    },
    release: (work) => {
      for (const ahead of present) ahead.release(work);
    },
  };
}

/**
 * `system.backup.height`: once the block at `height` is stored, its environment is copied to
 * `<dataPath>/backup` (src/chain/chain-backup.ts) off this thread; the next block executes
 * meanwhile, and its commit waits for the copy. A failed backup is logged, as lisk-sdk does, and
 * the node goes on. A node stopped or killed during the copy reopens with its tip still at
 * `height` (the next commit waited for the copy): then the copy is made again at open, unless the
 * backup there already holds `height`.
 */
function backupAtHeight(env: RootDatabase, processor: ChainProcessor, dataPath: string, height: number, logger: Logger) {
  let running: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    const path = backupDataPath(dataPath);
    const started = performance.now();
    running = (async () => {
      await backupEnvironment(env, dataPath);
      const copied = await backupTipHeight(dataPath);
      if (copied !== height) throw new Error(`the copy holds height ${copied}, not ${height}`);
      logger.info({ height, path, ms: Math.round(performance.now() - started) }, 'Backup of the data directory written');
    })().catch((error: unknown) => logger.error({ err: error, height, path }, 'Failed to write the backup'));
    return running;
  };
  if (height > 0) {
    processor.onBlockStored((header) => (header.height === height ? write() : undefined));
    if (processor.tipHeader().height === height) {
      running = backupTipHeight(dataPath).then(
        (copied) => (copied === height ? undefined : write()),
        () => write(),
      );
      processor.holdNextCommit(running);
    }
  }
  return { settled: () => running };
}
