/**
 * The block-production part of the composition root (src/node.ts): a generator on an open
 * chain's stores, a commit pool, the generator info kept in the chain's environment, and the
 * Forger that drives them slot by slot.
 */
import type { GenesisConfig } from '../config/genesis-config.js';
import { CommitPool } from '../engine/consensus/commit-pool.js';
import { BlockGenerator } from '../engine/generator/block-generator.js';
import { Forger, type ForgerOptions } from '../engine/generator/forger.js';
import { GeneratorStore } from '../engine/generator/generator-store.js';
import { feePriority } from '../engine/txpool/fee-priority.js';
import type { ProcessableTransactions } from '../engine/txpool/transaction-pool.js';
import { silentLogger, type Logger } from '../logger.js';
import { createBlockExecutor, type OpenChain } from './open-chain.js';

/** What block production over an open chain needs besides the chain itself. */
export type ChainForgerOptions = Pick<
  ForgerOptions,
  'now' | 'onBlockProcessed' | 'onInvalidTransactions' | 'onBlockGenerated' | 'isSyncing'
> & {
  readonly genesisConfig: GenesisConfig;
  readonly logger?: Logger;
  /** The Forger's transactions to choose from (a node's pool); none when absent. */
  readonly candidates?: ForgerOptions['candidates'];
};

const NO_CANDIDATES = (): ProcessableTransactions => ({ byAccount: new Map(), feePriority });

export interface ChainForger {
  readonly forger: Forger;
  readonly generator: BlockGenerator;
  readonly commitPool: CommitPool;
  readonly generatorStore: GeneratorStore;
}

/**
 * Block production over `chain`, wired as the running node wires it: a generator on the chain's
 * stores, a commit pool, and the generator info kept in the chain's environment.
 */
export function createChainForger(chain: OpenChain, options: ChainForgerOptions): ChainForger {
  const { genesisConfig } = options;
  const commitPool = new CommitPool(chain.bft, genesisConfig.minimumCertifyHeight);
  const generatorStore = new GeneratorStore(chain.env);
  const generator = new BlockGenerator({
    chainStore: chain.chainStore,
    stateDb: chain.stateDb,
    // The proofs of possession its candidates register, and the certificates they carry, are
    // checked in the pool before it runs.
    executor: createBlockExecutor(chain, undefined, chain.workAhead),
    bft: chain.bft,
    commitPool,
    generatorStore,
    genesisConfig,
  });
  const forger = new Forger({
    ...options,
    candidates: options.candidates ?? NO_CANDIDATES,
    generator,
    processor: chain.processor,
    chainStore: chain.chainStore,
    stateDb: chain.stateDb,
    bft: chain.bft,
    commitPool,
    genesisConfig,
    logger: options.logger ?? silentLogger,
  });
  return { forger, generator, commitPool, generatorStore };
}
