/** Renders figures as the one plain-text table `npm run bench` prints. */
import type { Figure } from './figure.js';
import type { MachineInfo } from './machine.js';

/** Three significant digits, with thousands separators for big rates. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

export function formatRatio(ratio: number | null): string {
  return ratio === null ? '' : `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}x`;
}

export function renderTable(figures: readonly Figure[]): string {
  const header = ['name', 'value', 'unit', 'baseline', 'ratio'];
  const rows = figures.map((f) => [f.name, formatValue(f.value), f.unit, f.baseline ?? '', formatRatio(f.ratio)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  // Numbers right-aligned, text left-aligned.
  const rightAligned = [false, true, false, false, true];
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAligned[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function renderMachine(machine: MachineInfo): string {
  const sha = machine.shaExtensions === null ? '' : machine.shaExtensions ? ', SHA extensions' : ', no SHA extensions';
  return `${machine.cpuModel} (${machine.cores} cores${sha}), ${machine.totalMemoryGiB} GiB, ${machine.platform}/${machine.arch}, Node ${machine.nodeVersion}, ${machine.date}`;
}
