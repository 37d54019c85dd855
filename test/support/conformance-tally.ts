/**
 * Counts conformance cases per fixture file. Each test file records how many cases of a fixture
 * it ran; the global teardown (test/support/global-setup.ts) prints one table for the whole run,
 * so a reader sees that every case of every file was exercised.
 */
import { appendFileSync } from 'node:fs';

export const TALLY_ENV = 'BASALT_CONFORMANCE_TALLY';

export function recordCases(fixtureFile: string, cases: number): void {
  const path = process.env[TALLY_ENV];
  if (!path) return;
  appendFileSync(path, `${JSON.stringify({ fixtureFile, cases })}\n`);
}
