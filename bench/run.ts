/**
 * `npm run bench [-- SUITE...]`: runs every benchmark suite (or the named ones), prints one
 * table and writes bench/results/latest.json. Progress goes to stderr, the table to stdout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toFigures, type Figure } from './lib/figure.js';
import { machineInfo } from './lib/machine.js';
import type { Suite } from './lib/suite.js';
import { renderMachine, renderTable } from './lib/table.js';
import { SUITES } from './suites/index.js';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

function usage(): string {
  const list = SUITES.map((s) => `  ${s.name.padEnd(12)} ${s.summary}`).join('\n');
  return `Usage: npm run bench [-- [--quick] SUITE...]\n\n  --quick  shorter runs (development only: noisier, no unpinned RPC runs)\n\nSuites (all of them when none is named):\n${list}\n`;
}

function selectSuites(args: readonly string[]): Suite[] {
  if (args.length === 0) return [...SUITES];
  const unknown = args.filter((name) => !SUITES.some((s) => s.name === name));
  if (unknown.length > 0) throw new UsageError(`Unknown suite: ${unknown.join(', ')}.`);
  return SUITES.filter((s) => args.includes(s.name));
}

class UsageError extends Error {}

/** Four significant digits: more would only record noise. */
function significant(value: number): number {
  return Number(value.toPrecision(4));
}

async function main(args: readonly string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(usage());
    return 0;
  }
  let suites: Suite[];
  try {
    suites = selectSuites(args.filter((a) => a !== '--quick'));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${usage()}`);
    return 2;
  }

  const quick = args.includes('--quick');
  const machine = machineInfo();
  const started = performance.now();
  const figures: Figure[] = [];
  for (const suite of suites) {
    const suiteStart = performance.now();
    const measurements = await suite.run((line) => process.stderr.write(`  ${line}\n`), { quick });
    // Baselines are resolved within a suite: a ratio only compares figures of the same run.
    figures.push(...toFigures(measurements));
    process.stderr.write(`${suite.name}: done in ${((performance.now() - suiteStart) / 1000).toFixed(1)} s\n`);
  }
  const seconds = (performance.now() - started) / 1000;

  process.stdout.write(`\n${renderMachine(machine)}\n\n${renderTable(figures)}\n\n`);
  process.stdout.write(`${figures.length} figures from ${suites.map((s) => s.name).join(', ')} in ${seconds.toFixed(0)} s. `);
  process.stdout.write('Ratio = speed-up over the baseline row (above 1: faster).\n');

  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}latest.json`;
  const results = figures.map((f) => ({ ...f, value: significant(f.value), ratio: f.ratio === null ? null : significant(f.ratio) }));
  const report = { machine, suites: suites.map((s) => s.name), quick, durationSeconds: Math.round(seconds), results };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`Written to bench/results/latest.json.\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
