/**
 * The module each pool thread loads (Piscina calls its default export once per task). It only
 * dispatches: the work itself lives in the tasks of task-registry.ts. A task that fails is
 * answered with a typed error envelope (worker-error.ts), which the pool turns back into the
 * same error class on the main thread.
 */
import { InvariantError } from '../errors.js';
import { findWorkerTask } from './task-registry.js';
import { toWorkerErrorEnvelope } from './worker-error.js';

export interface WorkerRequest {
  readonly task: string;
  readonly input: unknown;
}

export default async function runWorkerTask(request: WorkerRequest): Promise<unknown> {
  try {
    const task = findWorkerTask(request.task);
    if (task === undefined) throw new InvariantError(`Unknown worker task "${request.task}".`);
    return await task.run(request.input as never);
  } catch (error) {
    // Piscina posts whatever a task rejects with; the envelope is what survives the clone.
    throw toWorkerErrorEnvelope(error) ?? error;
  }
}
