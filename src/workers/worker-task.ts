/**
 * The shape of a unit of work for a worker thread. It has a file of its own so that the task
 * files (tasks/*.ts) and the list of tasks (task-registry.ts) both depend on it, and not on each
 * other.
 */

/** A unit of work for a worker thread: plain data in (structured clone), plain data out. */
export interface WorkerTask<I, O> {
  readonly name: string;
  run(input: I): O | Promise<O>;
}
