/** The worker pool and the verifiers that run on it (docs/architecture.md). */
export { defaultWorkerThreads, WorkerPool, WorkerPoolError, type RunOptions, type WorkerPoolOptions } from './worker-pool.js';
export { WorkerTaskError } from './worker-error.js';
export { PoolSignatureVerifier, type PoolSignatureVerifierOptions } from './pool-signature-verifier.js';
export { PoolStateTreeUpdater } from './pool-state-tree-updater.js';
export { PoolPopVerifier } from './pool-pop-verifier.js';
export type { TaskPriority } from './priority-task-queue.js';
export { WORKER_TASKS } from './task-registry.js';
export type { WorkerTask } from './worker-task.js';
export { openWorkerPool, WORKERS_ENV } from './open-worker-pool.js';
