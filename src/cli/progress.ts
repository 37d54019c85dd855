/**
 * A progress line on stderr: redrawn in place on a terminal, one line every few seconds
 * otherwise (CI logs), with the rate in items per second.
 */
export class ProgressReporter {
  private readonly started = Date.now();
  private lastPrinted = 0;
  private count = 0;
  private last = 0;

  constructor(
    private readonly out: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly unit: string,
    private readonly intervalMs = 5000,
    /** What was done to each item, as the line says it. */
    private readonly verb = 'applied',
  ) {}

  /** `items` more were done (one by default), the last at `position`. */
  tick(position: number, items = 1): void {
    this.count += items;
    this.last = position;
    const now = Date.now();
    if (this.out.isTTY) {
      if (now - this.lastPrinted < 100) return;
      this.out.write(`\r${this.line(now)}`);
    } else {
      if (now - this.lastPrinted < this.intervalMs) return;
      this.out.write(`${this.line(now)}\n`);
    }
    this.lastPrinted = now;
  }

  done(): void {
    this.out.write(`${this.out.isTTY ? '\r' : ''}${this.line(Date.now())}\n`);
  }

  private line(now: number): string {
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    return `${this.count} ${this.unit} ${this.verb}, at height ${this.last}, ${(this.count / seconds).toFixed(1)} ${this.unit}/s`;
  }
}
