/**
 * The module each pool thread loads (Piscina calls its default export once per task). It only
 * dispatches: the work itself lives in the tasks of task-registry.ts.
 */
import { findWorkerTask } from './task-registry.js';
import { InvariantError } from '../errors.js';

export interface WorkerRequest {
  readonly task: string;
  readonly input: unknown;
}

export default async function runWorkerTask(request: WorkerRequest): Promise<unknown> {
  const task = findWorkerTask(request.task);
  if (task === undefined) throw new InvariantError(`Unknown worker task "${request.task}".`);
  return task.run(request.input as never);
}
