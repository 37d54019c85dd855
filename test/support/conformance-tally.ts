/**
 * Counts conformance cases per fixture file. Each test file records how many cases of a fixture
 * passed; the global teardown (test/support/global-setup.ts) prints one table for the whole run,
 * so a reader sees that every case of every file was exercised.
 */
import { appendFileSync } from 'node:fs';
import { afterAll } from 'vitest';

export const TALLY_ENV = 'BASALT_CONFORMANCE_TALLY';

export function recordCases(fixtureFile: string, cases: number): void {
  const path = process.env[TALLY_ENV];
  if (!path) return;
  appendFileSync(path, `${JSON.stringify({ fixtureFile, cases })}\n`);
}

/**
 * Counts the cases of `fixtureFile` that pass, and records the count in an afterAll hook of the
 * describe block (or file) it is called in: the table then shows the cases that ran to the end,
 * not the number the fixture holds. Each case calls the returned function after its last check.
 */
export function caseCounter(fixtureFile: string): () => void {
  let passed = 0;
  afterAll(() => recordCases(fixtureFile, passed));
  return () => {
    passed += 1;
  };
}
