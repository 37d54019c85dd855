/**
 * Prints the conformance tally (conformance-tally.ts) at the end of a run: one row per fixture
 * file with the number of its cases that ran to the end.
 *
 * A reporter rather than the global teardown: vitest.config.ts lists it before the default
 * reporter, so the table comes out before the failed tests and the summary. Printed after them,
 * its hundred-odd lines were the tail of the output, and a CI log cut to its last lines showed
 * the table but not what failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Reporter } from 'vitest/node';
import { TALLY_ENV } from './conformance-tally.js';

/** The table for the tally file at `path`, or undefined when no test recorded anything. */
export function tallyTable(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const totals = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const { fixtureFile, cases } = JSON.parse(line) as { fixtureFile: string; cases: number };
    // Several test files may exercise the same fixture file: report the largest count, not the sum.
    totals.set(fixtureFile, Math.max(totals.get(fixtureFile) ?? 0, cases));
  }
  const rows = [...totals.entries()].sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...rows.map(([name]) => name.length), 10);
  const lines = rows.map(([name, n]) => `  ${name.padEnd(width)}  ${String(n).padStart(6)}`);
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  return `\nConformance cases run per fixture file (${rows.length} files, ${total} cases):\n${lines.join('\n')}\n`;
}

export default class ConformanceTallyReporter implements Reporter {
  onTestRunEnd(): void {
    // Written at once, before the reporters after this one print their end of run.
    const path = process.env[TALLY_ENV];
    const table = path === undefined ? undefined : tallyTable(path);
    if (table !== undefined) process.stdout.write(table);
  }
}
