/**
 * The node's one worker pool, as the environment asks for it: `BASALT_WORKERS=0` keeps all work
 * on the main thread (debugging, profiling, machines where threads cost more than they give),
 * `BASALT_WORKERS=N` sets the thread count, unset means one thread per core.
 */
import { ConfigError } from '../config/config-error.js';
import { WorkerPool } from './worker-pool.js';

export const WORKERS_ENV = 'BASALT_WORKERS';

/** A pool per the environment, or undefined when it asks for none. */
export function openWorkerPool(options: { workerData?: unknown; env?: NodeJS.ProcessEnv } = {}): WorkerPool | undefined {
  const raw = (options.env ?? process.env)[WORKERS_ENV];
  if (raw === undefined || raw === '') return new WorkerPool({ workerData: options.workerData });
  const threads = Number(raw);
  if (!Number.isInteger(threads) || threads < 0 || threads > 256) {
    throw new ConfigError(`${WORKERS_ENV}: must be an integer from 0 to 256 (0: no worker threads), got "${raw}".`);
  }
  return threads === 0 ? undefined : new WorkerPool({ threads, workerData: options.workerData });
}
