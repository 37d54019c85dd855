/**
 * A small reader of the Prometheus text exposition format (version 0.0.4), for tests that scrape
 * `GET /metrics` as Prometheus would: `# HELP` / `# TYPE` lines and samples
 * `name{label="value",...} number`, with the format's escapes in label values. prom-client's own
 * parser is not public, and a test should not read the text with the code that wrote it.
 */
export interface PrometheusSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface PrometheusText {
  /** `# TYPE` of each family. */
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly PrometheusSample[];
  /** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Readonly<Record<string, string>>): number | undefined;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/y;

export function parsePrometheusText(text: string): PrometheusText {
  const types = new Map<string, string>();
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const [, keyword, name, rest] = line.split(/\s+/, 4) as [string, string, string, string];
      if (keyword === 'TYPE') types.set(name, rest);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`Not a Prometheus sample line: ${line}`);
    const [, name, , labelText = '', valueText] = match as unknown as [string, string, string, string | undefined, string];
    samples.push({ name, labels: parseLabels(labelText, line), value: parseValue(valueText) });
  }
  return {
    types,
    samples,
    value(name, labels = {}) {
      const found = samples.filter(
        (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      );
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const start = LABEL.lastIndex;
    const match = LABEL.exec(text);
    if (match === null || match.index !== start) throw new Error(`Bad labels in: ${line}`);
    labels[match[1] as string] = (match[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

function parseValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // Prometheus reads NaN in any case (prom-client writes `Nan`).
  if (text.toLowerCase() === 'nan') return Number.NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`Not a sample value: ${text}`);
  return value;
}
