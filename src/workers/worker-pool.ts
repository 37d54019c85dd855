/**
 * The node's worker threads (docs/architecture.md: the main thread serves the network,
 * CPU-heavy work goes to a Piscina pool). One pool per process, sized to the cores; tasks are
 * named and listed in task-registry.ts.
 *
 * Piscina costs 30-100 µs per task (measured), so callers send batches, never
 * single items. Every task names its queue class (priority-task-queue.ts): a block's checks never
 * wait behind RPC reads or transaction-pool work queued before them. From the TypeScript sources (tests, `npm start`) the threads load worker-entry.ts
 * through tsx; from dist/ they load the built worker-entry.js.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina, queueOptionsSymbol } from 'piscina';
import { BasaltError } from '../errors.js';
import { PriorityTaskQueue, type TaskPriority, type TaskQueueOptions } from './priority-task-queue.js';
import type { WorkerRequest } from './worker-entry.js';
import { fromWorkerErrorEnvelope, isWorkerErrorEnvelope } from './worker-error.js';

export interface WorkerPoolOptions {
  /** Threads; defaults to defaultWorkerThreads(). */
  readonly threads?: number;
  /** Data handed to every thread as `workerData` (e.g. the data path for read-only LMDB views). */
  readonly workerData?: unknown;
}

/**
 * Raised when the pool, not the task, failed: the pool is closed, or the thread running the task
 * died (Piscina then starts a new thread, so later tasks run normally). Callers that have a
 * main-thread path fall back to it on this error. A task's own failure is never one of these: it
 * is rethrown as its own class (worker-error.ts).
 */
export class WorkerPoolError extends BasaltError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('WORKER_POOL_UNAVAILABLE', message, options);
  }
}

/** Piscina's words for a task whose thread ended under it (exit, terminate, destroy). */
const THREAD_ENDED = /^(worker exited with code|Terminating worker thread)/;

function entryFile(): { filename: string; execArgv: string[] } {
  const built = fileURLToPath(new URL('./worker-entry.js', import.meta.url));
  if (existsSync(built)) return { filename: built, execArgv: [] };
  return { filename: fileURLToPath(new URL('./worker-entry.ts', import.meta.url)), execArgv: ['--import', 'tsx'] };
}

/**
 * Why work meant for the pool ran on the calling thread instead. `no_verdict`: a check whose answer
 * was to be computed in the pool ahead of time (a proof of possession before its block) was not.
 */
export type FallbackReason = 'small_input' | 'pool_failed' | 'stale_tree' | 'no_verdict';

/** How one task is queued and sent. */
export interface RunOptions {
  /** Its class in the queue (priority-task-queue.ts): every caller says who waits for it. */
  readonly priority: TaskPriority;
  /** Buffers of the input to move to the thread instead of copying them (unusable here afterwards). */
  readonly transferList?: ArrayBuffer[];
}

export interface FallbackCount {
  readonly task: string;
  readonly reason: FallbackReason;
  count: number;
}

/**
 * Threads a pool gets when not told otherwise: one per core the machine offers (at least one).
 * Block apply, the path consensus waits on, runs clearly faster with every core checking
 * signatures than with one left to the main thread, and the queue classes already keep a block's
 * checks ahead of RPC work (the measurements are in docs/architecture.md).
 */
export function defaultWorkerThreads(cores: number = availableParallelism()): number {
  return Math.max(1, cores);
}

export class WorkerPool {
  private readonly piscina: Piscina;
  private readonly queue = new PriorityTaskQueue();
  private closed = false;
  /** Tasks sent since the pool opened, by task name (read by the node's metrics). */
  readonly taskCounts = new Map<string, number>();
  /** Work done on the calling thread instead of here, by task and reason (see recordFallback). */
  readonly fallbackCounts = new Map<string, FallbackCount>();

  constructor(options: WorkerPoolOptions = {}) {
    const threads = Math.max(1, options.threads ?? defaultWorkerThreads());
    const { filename, execArgv } = entryFile();
    this.piscina = new Piscina({
      filename,
      execArgv,
      minThreads: threads,
      maxThreads: threads,
      // Threads stay up: a node verifies signatures all day, and a cold start costs milliseconds.
      idleTimeout: Number.POSITIVE_INFINITY,
      workerData: options.workerData,
      taskQueue: this.queue,
      // By default Piscina moves a task it could not hand out (every thread busy) to the back of
      // the queue, which reorders each class; put back in front, each class stays first come,
      // first served.
      stricterFIFO: true,
    });
  }

  get threads(): number {
    return this.piscina.options.maxThreads;
  }

  /** Tasks waiting for a free thread. */
  get queueSize(): number {
    return this.piscina.queueSize;
  }

  /** Tasks of class `priority` waiting for a free thread. */
  queueSizeOf(priority: TaskPriority): number {
    return this.queue.sizeOf(priority);
  }

  /** Threads running a task now. */
  get busyThreads(): number {
    return Math.max(0, this.piscina.threads.length - this.piscina.idleThreads);
  }

  /**
   * Counts work meant for task `task` that the caller did on its own thread: a verifier's
   * fallback is invisible in its results (they are the same), so this is how an operator sees it.
   */
  recordFallback(task: string, reason: FallbackReason): void {
    const key = `${task}/${reason}`;
    const entry = this.fallbackCounts.get(key);
    if (entry === undefined) this.fallbackCounts.set(key, { task, reason, count: 1 });
    else entry.count += 1;
  }

  /**
   * Runs task `name` on some thread. Rejects with the task's own error (the same class and code
   * as thrown in the thread, see worker-error.ts), or with WorkerPoolError when the pool is
   * closed or the thread died while running it. A free thread takes the oldest task of the most
   * urgent class waiting (`options.priority`).
   */
  async run<O>(name: string, input: unknown, options: RunOptions): Promise<O> {
    if (this.closed) throw new WorkerPoolError('The worker pool is closed.');
    const queueOptions: TaskQueueOptions = { priority: options.priority };
    const request: WorkerRequest & { [queueOptionsSymbol]: TaskQueueOptions } = { task: name, input, [queueOptionsSymbol]: queueOptions };
    this.taskCounts.set(name, (this.taskCounts.get(name) ?? 0) + 1);
    const { transferList } = options;
    try {
      return (await this.piscina.run(request, transferList === undefined ? undefined : { transferList })) as O;
    } catch (error) {
      if (isWorkerErrorEnvelope(error)) throw fromWorkerErrorEnvelope(error);
      if (error instanceof Error && THREAD_ENDED.test(error.message)) {
        throw new WorkerPoolError(`The worker thread running task "${name}" ended before answering (${error.message}).`, { cause: error });
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy();
  }
}
