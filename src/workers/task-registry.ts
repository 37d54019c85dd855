/**
 * The tasks a worker can run, by name. The worker entry dispatches on this list and the pool
 * refuses names that are not in it, so a task exists in exactly one place.
 */
import { chainReadBlocks } from './tasks/chain-read-blocks.js';
import { chainReadBlocksFromId } from './tasks/chain-read-blocks-from-id.js';
import { chainReadEventProof } from './tasks/chain-read-event-proof.js';
import { blsAggregateTask } from './tasks/bls-aggregate.js';
import { blsPopVerifyBatchTask } from './tasks/bls-pop-verify-batch.js';
import { blsVerifyBatchTask } from './tasks/bls-verify-batch.js';
import { ed25519VerifyBatchTask } from './tasks/ed25519-verify-batch.js';
import { stateReadProve } from './tasks/state-read-prove.js';
import { stateTreeUpdate } from './tasks/state-tree-update.js';
import type { WorkerTask } from './worker-task.js';

/** Every task; typed loosely here because each one checks the input it is given. */
export const WORKER_TASKS: readonly WorkerTask<never, unknown>[] = [
  ed25519VerifyBatchTask,
  blsVerifyBatchTask,
  blsAggregateTask,
  blsPopVerifyBatchTask,
  chainReadBlocks,
  chainReadBlocksFromId,
  chainReadEventProof,
  stateReadProve,
  stateTreeUpdate,
];

/** The task called `name`, or undefined. */
export function findWorkerTask(name: string): WorkerTask<never, unknown> | undefined {
  return WORKER_TASKS.find((task) => task.name === name);
}
