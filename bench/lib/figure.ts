/**
 * A figure is one row of the bench table and one entry of results/latest.json. Suites report
 * measurements; the runner turns them into figures by resolving each baseline (another
 * measurement of the same run) into a ratio.
 */

/**
 * Units in use. Rates ("…/s") are better when higher; times and memory are better when lower;
 * counts (the worker pool's, bench/lib/pool-counters.ts) are context, never compared.
 */
export type Unit = 'µs/op' | 'ms/op' | 'ms' | 's' | 'updates/s' | 'blocks/s' | 'tx/s' | 'req/s' | 'MiB' | 'B/entry' | 'count';

export interface Measurement {
  readonly name: string;
  readonly value: number;
  readonly unit: Unit;
  /** Name of the measurement (same run, same unit) this one is compared with. */
  readonly baseline?: string;
}

export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: Unit;
  /** Name of the reference figure, itself a row of the same results; null when there is none. */
  readonly baseline: string | null;
  /**
   * Speed-up over the baseline: above 1 means faster than the baseline, below 1 slower,
   * whatever the unit (a time ratio is inverted so that bigger is always better).
   */
  readonly ratio: number | null;
}

export function higherIsBetter(unit: Unit): boolean {
  return unit.endsWith('/s');
}

/** Speed-up of `value` over `baseline`, both in `unit`. */
export function speedup(value: number, baseline: number, unit: Unit): number {
  return higherIsBetter(unit) ? value / baseline : baseline / value;
}

/**
 * Resolves baselines by name among `measurements`. A missing or unit-mismatched baseline is a
 * bug in a suite, so it throws rather than printing a meaningless ratio.
 */
export function toFigures(measurements: readonly Measurement[]): Figure[] {
  const byName = new Map(measurements.map((m) => [m.name, m]));
  if (byName.size !== measurements.length) throw new Error('Two measurements share a name.');
  return measurements.map((m) => {
    if (m.baseline === undefined) return { name: m.name, value: m.value, unit: m.unit, baseline: null, ratio: null };
    const reference = byName.get(m.baseline);
    if (reference === undefined) throw new Error(`Baseline "${m.baseline}" of "${m.name}" was not measured.`);
    if (reference.unit !== m.unit) throw new Error(`Baseline "${m.baseline}" of "${m.name}" has another unit.`);
    return { name: m.name, value: m.value, unit: m.unit, baseline: m.baseline, ratio: speedup(m.value, reference.value, m.unit) };
  });
}
