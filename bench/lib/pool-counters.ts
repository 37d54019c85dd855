/**
 * The worker pool's counters for the rows of a suite that uses it: the highest queue length and
 * number of busy threads seen while the measured work ran (sampled, as a metrics scrape would),
 * the tasks sent by task name and the work done on the main thread instead, by task and reason.
 * They are read from the pool through the interface the node's metrics read
 * (src/metrics/node-metrics.ts `WorkerPoolMetricsSource`), so the bench and
 * `basalt_worker_*` report the same counts; only what the measured work added is reported.
 */
import type { WorkerPoolMetricsSource } from '../../src/metrics/index.js';
import type { Measurement } from './figure.js';

/** How often the queue is sampled: a task costs tens of µs to ms, so short queues still show. */
const SAMPLE_MS = 1;

export class PoolCounters {
  private peakQueue = 0;
  private peakBusy = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly tasksBefore: Map<string, number>;
  private readonly fallbacksBefore: Map<string, number>;
  /** The counts when stop() was called (the pool may go on with other work afterwards). */
  private tasksAtStop: ReadonlyMap<string, number> | undefined;
  private fallbacksAtStop: ReadonlyMap<string, { readonly task: string; readonly reason: string; readonly count: number }> | undefined;

  /** Starts counting now: tasks and fallbacks before this call are not the measured work's. */
  constructor(private readonly pool: WorkerPoolMetricsSource) {
    this.tasksBefore = new Map(pool.taskCounts);
    this.fallbacksBefore = new Map([...pool.fallbackCounts].map(([key, entry]) => [key, entry.count]));
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** Stops sampling; the rows describe the work done until now. */
  stop(): void {
    if (this.timer === undefined) return;
    this.sample();
    clearInterval(this.timer);
    this.timer = undefined;
    this.tasksAtStop = new Map(this.pool.taskCounts);
    this.fallbacksAtStop = new Map([...this.pool.fallbackCounts].map(([key, entry]) => [key, { ...entry }]));
  }

  /** Rows named after `label` (the row they describe), unit `count`. */
  rows(label: string): Measurement[] {
    this.stop();
    const rows: Measurement[] = [
      { name: `${label}: pool peak queue length`, value: this.peakQueue, unit: 'count' },
      { name: `${label}: pool peak busy threads (of ${this.pool.threads})`, value: this.peakBusy, unit: 'count' },
    ];
    for (const [task, count] of this.tasksAtStop ?? this.pool.taskCounts) {
      const added = count - (this.tasksBefore.get(task) ?? 0);
      if (added > 0) rows.push({ name: `${label}: pool tasks ${task}`, value: added, unit: 'count' });
    }
    let fallbacks = 0;
    for (const [key, { task, reason, count }] of this.fallbacksAtStop ?? this.pool.fallbackCounts) {
      const added = count - (this.fallbacksBefore.get(key) ?? 0);
      fallbacks += added;
      if (added > 0) rows.push({ name: `${label}: main-thread fallbacks ${task} (${reason})`, value: added, unit: 'count' });
    }
    if (fallbacks === 0) rows.push({ name: `${label}: main-thread fallbacks`, value: 0, unit: 'count' });
    return rows;
  }

  private sample(): void {
    this.peakQueue = Math.max(this.peakQueue, this.pool.queueSize);
    this.peakBusy = Math.max(this.peakBusy, this.pool.busyThreads);
  }
}
