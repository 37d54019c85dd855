/** What every file of bench/suites exports. */
import type { Measurement } from './figure.js';

export interface SuiteOptions {
  /** `--quick`: shorter runs for development; figures are noisier and unpinned runs are skipped. */
  readonly quick: boolean;
}

export interface Suite {
  /** Short name, as given on the command line: `npm run bench -- codec`. */
  readonly name: string;
  readonly summary: string;
  /** Runs the suite; `progress` writes a line to stderr (stdout is kept for the table). */
  run(progress: (line: string) => void, options: SuiteOptions): Promise<Measurement[]>;
}
