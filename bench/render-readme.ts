/**
 * `npm run bench:readme`: writes bench/results/latest.json into README.md as a markdown table,
 * between `<!-- bench:start -->` and `<!-- bench:end -->`, with the machine and date of the run.
 * Kept apart from the run itself so a published table is always a deliberate choice (a full run,
 * not a partial or --quick one; the script refuses those unless given --force).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Figure } from './lib/figure.js';
import type { MachineInfo } from './lib/machine.js';
import { formatRatio, formatValue, renderMachine } from './lib/table.js';
import { SUITES } from './suites/index.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const LATEST = fileURLToPath(new URL('./results/latest.json', import.meta.url));
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

interface Report {
  readonly machine: MachineInfo;
  readonly suites: readonly string[];
  readonly quick?: boolean;
  readonly durationSeconds: number;
  readonly results: readonly Figure[];
}

/** `|` inside a cell would split it. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderMarkdown(report: Report): string {
  const rows = report.results.map(
    (f) => `| ${cell(f.name)} | ${formatValue(f.value)} | ${f.unit} | ${cell(f.baseline ?? '')} | ${formatRatio(f.ratio)} |`,
  );
  const scope = report.suites.length === SUITES.length ? 'all suites' : `suites: ${report.suites.join(', ')}`;
  return [
    `Machine: ${renderMachine(report.machine)}. ${scope}${report.quick ? ', --quick' : ''}, ${report.durationSeconds} s.`,
    '',
    '| name | value | unit | baseline | ratio |',
    '| --- | ---: | --- | --- | ---: |',
    ...rows,
  ].join('\n');
}

function main(args: readonly string[]): number {
  const report = JSON.parse(readFileSync(LATEST, 'utf8')) as Report;
  const partial = report.quick === true || report.suites.length !== SUITES.length;
  if (partial && !args.includes('--force')) {
    process.stderr.write('bench/results/latest.json is from a partial or --quick run; run `npm run bench` first (or pass --force).\n');
    return 1;
  }
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) {
    process.stderr.write(`README.md has no ${START} … ${END} markers.\n`);
    return 1;
  }
  const updated = `${readme.slice(0, start + START.length)}\n${renderMarkdown(report)}\n${readme.slice(end)}`;
  writeFileSync(README, updated);
  process.stdout.write(`README.md: ${report.results.length} figures from ${report.machine.date}.\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
