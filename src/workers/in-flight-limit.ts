/**
 * At most `limit` calls running at once; the others wait their turn, first come first served.
 * Sits in front of WorkerPool.run for work that must not take every thread (see
 * PoolSignatureVerifier's `aheadThreads`): Piscina's queue only learns that a task was pushed or
 * shifted, never that it ended, so a cap on what is in flight has to be kept outside of it.
 */
export class InFlightLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private waitingHead = 0;
  /** The most calls that ran at once since this limit was made. */
  private peak = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`An in-flight limit must be a positive integer, got ${limit}.`);
  }

  /** Calls running now. */
  get inFlight(): number {
    return this.running;
  }

  /** Calls waiting for one of those to end. */
  get queued(): number {
    return this.waiting.length - this.waitingHead;
  }

  /** The most calls that ran at once so far (never above `limit`). */
  get highWater(): number {
    return this.peak;
  }

  /** Runs `call` once fewer than `limit` calls are running; settles as it does. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resume) => this.waiting.push(resume));
    else this.running += 1;
    this.peak = Math.max(this.peak, this.running);
    try {
      return await call();
    } finally {
      this.release();
    }
  }

  /** Hands the slot of a call that ended to the oldest waiting call, or frees it. */
  private release(): void {
    if (this.waitingHead < this.waiting.length) {
      const next = this.waiting[this.waitingHead] as () => void;
      this.waitingHead += 1;
      if (this.waitingHead === this.waiting.length) {
        this.waiting.length = 0;
        this.waitingHead = 0;
      }
      next();
      return;
    }
    this.running -= 1;
  }
}
