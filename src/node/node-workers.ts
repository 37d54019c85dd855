/**
 * The worker part of the composition root (src/node.ts): the pool and the verifiers that run on
 * it. Whoever holds a verifier never knows whether a pool is behind it (the interfaces in
 * src/crypto/signature-verifier.ts and src/state/state-tree.ts); this is the one place that
 * decides.
 */
import type { PopVerifier } from '../crypto/pop-verifier.js';
import type { SignatureVerifier } from '../crypto/signature-verifier.js';
import type { Logger } from '../logger.js';
import { nativeAvailable, nativeSearch, nativeStatus } from '../native/index.js';
import type { StateTreeUpdater } from '../state/state-db.js';
import {
  openWorkerPool,
  PoolPopVerifier,
  PoolSignatureVerifier,
  PoolStateTreeUpdater,
  WORKERS_ENV,
  type WorkerPool,
} from '../workers/index.js';
import { blsPopVerifyBatchTask } from '../workers/tasks/bls-pop-verify-batch.js';
import { blsVerifyBatchTask } from '../workers/tasks/bls-verify-batch.js';
import type { CertificateVerifiers } from './certificate-checks-ahead.js';

/** How the verifiers of a pool are tuned; the defaults are the node's. */
export interface OffThreadTuning {
  /** Fewest signatures sent to the pool; smaller sets are checked on this thread. */
  readonly minPoolSet?: number;
  /** Fewest state changes whose tree update is computed in the pool. */
  readonly minChanges?: number;
  /**
   * Threads the signature checks of the blocks planned ahead may occupy at once (default: every
   * thread; the block-apply bench measures a cap at cores − 1 against it).
   */
  readonly aheadThreads?: number;
}

/** Where the CPU-heavy work of block processing runs: signature checks and state-tree updates. */
export type WorkersChoice =
  /** Everything on this thread: no pool (tests, small inputs). */
  | 'main-thread'
  /** A pool of its own, as BASALT_WORKERS asks (none for 0); the node closes it. The running node's choice. */
  | 'env'
  /** A pool the caller owns (and closes), with the verifiers tuned as given. */
  | ({ readonly pool: WorkerPool } & OffThreadTuning);

/** Where proofs of possession are checked: a block's ahead of it, a request's as it comes. */
export interface PopVerifiers {
  /** The pairs a block registers, before it executes (consensus priority). */
  readonly blocks: PopVerifier;
  /** validators_validateBLSKey (RPC priority). */
  readonly requests: PopVerifier;
  /** Counts a check done on the main thread because no answer was computed ahead. */
  onMiss(): void;
}

/** The verifiers block processing hands its heavy work to; absent ones mean "on this thread". */
export interface OffThreadWork {
  /** A block's signatures, commits and certificates: queued ahead of everything else. */
  readonly signatureVerifier?: SignatureVerifier;
  /** The transaction pool's signature checks: queued with RPC reads, behind block work. */
  readonly transactionSignatureVerifier?: SignatureVerifier;
  readonly stateTreeUpdater?: StateTreeUpdater;
  readonly popVerifiers?: PopVerifiers;
  /** The certificate signatures of a block's cross-chain updates, before it executes. */
  readonly certificateVerifiers?: CertificateVerifiers;
}

/** The node's pool and the verifiers on it. */
export interface NodeWorkers extends Required<OffThreadWork> {
  readonly pool: WorkerPool;
  /** Closes the pool if the node opened it; a pool the caller owns stays open. */
  close(): Promise<void>;
}

/**
 * The verifiers that run on `pool`: signature checks (one per queue class), the state-tree
 * updater, the proof-of-possession checks and the certificate checks.
 */
export function offThreadWork(pool: WorkerPool, tuning: OffThreadTuning = {}, logger?: Logger): Required<OffThreadWork> {
  const signatureVerifier = new PoolSignatureVerifier(pool, {
    minPoolSet: tuning.minPoolSet,
    logger,
    priority: 'consensus',
    aheadThreads: tuning.aheadThreads,
  });
  const transactionSignatureVerifier = new PoolSignatureVerifier(pool, { minPoolSet: tuning.minPoolSet, logger, priority: 'reads' });
  return {
    signatureVerifier,
    transactionSignatureVerifier,
    stateTreeUpdater: new PoolStateTreeUpdater(pool, { minChanges: tuning.minChanges }),
    popVerifiers: {
      blocks: new PoolPopVerifier(pool, 'consensus'),
      requests: new PoolPopVerifier(pool, 'reads'),
      onMiss: () => pool.recordFallback(blsPopVerifyBatchTask.name, 'no_verdict'),
    },
    certificateVerifiers: {
      blocks: signatureVerifier,
      requests: transactionSignatureVerifier,
      onMiss: () => pool.recordFallback(blsVerifyBatchTask.name, 'no_verdict'),
    },
  };
}

/**
 * The pool `choice` names and the verifiers on it, or undefined for no pool. Logs which pool and
 * which hashing (native or TypeScript) the node runs with.
 */
export function openNodeWorkers(
  choice: WorkersChoice,
  options: { readonly dataPath: string; readonly logger: Logger },
): NodeWorkers | undefined {
  const { logger } = options;
  let workers: NodeWorkers | undefined;
  if (choice === 'env') {
    const pool = openWorkerPool({ workerData: { dataPath: options.dataPath } });
    workers = pool && { pool, ...offThreadWork(pool, {}, logger), close: () => pool.close() };
    logger.info(
      { threads: pool?.threads ?? 0 },
      pool ? 'Worker pool started' : `No worker threads (${WORKERS_ENV}=0): all work on the main thread`,
    );
  } else if (choice !== 'main-thread') {
    const { pool, ...tuning } = choice;
    workers = { pool, ...offThreadWork(pool, tuning, logger), close: async () => {} };
  }
  // Once per node: which SHA-256 and SMT it hashes with (native/README.md).
  logger.debug({ search: nativeSearch }, 'native addon search');
  logger.info({ native: nativeAvailable }, nativeStatus);
  return workers;
}
