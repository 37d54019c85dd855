/**
 * The two forms of `system_getMetricsReport`: lisk-sdk serves its prom-client
 * registry, as `getMetricsAsJSON()` by default and as the Prometheus text exposition format when
 * `inString` is true. Basalt keeps both shapes so that dashboards and scrapers written for Lisk
 * read it unchanged.
 */

export type MetricType = 'counter' | 'gauge';

export interface MetricSample {
  readonly value: number;
  readonly labels: Readonly<Record<string, string>>;
}

/** One metric with all its label combinations (a prom-client "metric"). */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly values: readonly MetricSample[];
}

/** prom-client's `getMetricsAsJSON()` element, key order included. */
export interface MetricJSON {
  help: string;
  name: string;
  type: MetricType;
  values: { value: number; labels: Record<string, string> }[];
  aggregator: 'sum';
}

/** The JSON form (prom-client `getMetricsAsJSON`). */
export function metricsToJSON(families: readonly MetricFamily[]): MetricJSON[] {
  return families.map((family) => ({
    help: family.help,
    name: family.name,
    type: family.type,
    values: family.values.map((sample) => ({ value: sample.value, labels: { ...sample.labels } })),
    aggregator: 'sum',
  }));
}

/** The Prometheus text exposition format (version 0.0.4), as prom-client's `metrics()` writes it. */
export function metricsToText(families: readonly MetricFamily[]): string {
  let text = '';
  for (const family of families) {
    text += `# HELP ${family.name} ${escapeHelp(family.help)}\n# TYPE ${family.name} ${family.type}\n`;
    for (const sample of family.values) text += `${family.name}${labelText(sample.labels)} ${sample.value}\n`;
    text += '\n';
  }
  return text;
}

function labelText(labels: Readonly<Record<string, string>>): string {
  const names = Object.keys(labels);
  if (names.length === 0) return '';
  return `{${names.map((name) => `${name}="${escapeLabelValue(labels[name] as string)}"`).join(',')}}`;
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
