/**
 * The one place that drives tinybench. Each task gets its own Bench so that slow tasks (a BLS
 * proof of possession, an SMT batch) can lower the minimum iteration count while fast ones keep
 * the default time budget.
 *
 * Figures use the median latency, not the mean: the 2-core machine is shared, and the median
 * shrugs off the samples another process stole.
 */
import { Bench } from 'tinybench';

export interface TimedTask {
  readonly name: string;
  /** Runs `opsPerCall` operations; its result is kept alive so the work cannot be optimised away. */
  readonly fn: () => unknown;
  /**
   * Operations per call. Sub-microsecond operations are looped inside `fn` so that one timer read
   * (tens of ns) does not dominate the sample.
   */
  readonly opsPerCall?: number;
  /** Time budget in ms (default 1000). */
  readonly timeMs?: number;
  /** Minimum iterations (default 64, tinybench's). Lower it for tasks of tens of ms. */
  readonly minIterations?: number;
  /** Minimum warm-up iterations (default: 16, or minIterations when lower). */
  readonly warmupIterations?: number;
}

let sink: unknown;

/** Median time of one operation of `task`, in milliseconds. */
export async function medianMsPerOp(task: TimedTask): Promise<number> {
  const timeMs = task.timeMs ?? 1000;
  const bench = new Bench({
    time: timeMs,
    iterations: task.minIterations ?? 64,
    warmupTime: Math.min(250, timeMs / 4),
    warmupIterations: task.warmupIterations ?? Math.min(16, task.minIterations ?? 16),
    throws: true,
  });
  bench.add(task.name, () => {
    sink = task.fn();
  });
  const [result] = bench.runSync();
  if (result === undefined || result.result.state !== 'completed') {
    throw new Error(`Benchmark "${task.name}" did not complete (${result?.result.state ?? 'no task'}).`);
  }
  return result.result.latency.p50 / (task.opsPerCall ?? 1);
}

/** The last task result (it exists so that `sink` is read, and results stay observable). */
export function lastSink(): unknown {
  return sink;
}

/**
 * Median ms per operation of each task, measured in `rounds` interleaved rounds (task A, B, C,
 * then A, B, C again...) of `timeMs / rounds` each, keeping each task's best round. Figures that
 * are compared with each other are measured this way: when a neighbouring process steals the
 * CPU for a while, it slows one round of every task instead of all of one task's samples.
 */
export async function interleavedMsPerOp(tasks: readonly TimedTask[], rounds = 3): Promise<number[]> {
  const best = tasks.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    for (const [i, task] of tasks.entries()) {
      const roundTask: TimedTask = {
        ...task,
        timeMs: (task.timeMs ?? 1000) / rounds,
        minIterations: Math.max(1, Math.ceil((task.minIterations ?? 64) / rounds)),
      };
      best[i] = Math.min(best[i]!, await medianMsPerOp(roundTask));
    }
  }
  return best;
}
