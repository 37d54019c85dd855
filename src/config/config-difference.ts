/**
 * The first place where two JSON configs differ, to tell an operator exactly which key makes a
 * restart config differ from the one stored in the data directory.
 */

export interface ConfigDifference {
  /** Path of the differing key, e.g. `.rpc.port` or `.network.seedPeers[1].ip`. */
  readonly path: string;
  /** The stored value (undefined when absent). */
  readonly stored: unknown;
  /** The given value (undefined when absent). */
  readonly given: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Depth-first, keys in sorted order; paths in `ignore` are skipped. Undefined when equal. */
export function firstConfigDifference(
  stored: unknown,
  given: unknown,
  ignore: ReadonlySet<string> = new Set(),
  path = '',
): ConfigDifference | undefined {
  if (ignore.has(path)) return undefined;
  if (Array.isArray(stored) && Array.isArray(given)) {
    const length = Math.max(stored.length, given.length);
    for (let index = 0; index < length; index += 1) {
      const difference = firstConfigDifference(stored[index], given[index], ignore, `${path}[${index}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(stored) && isObject(given)) {
    const keys = [...new Set([...Object.keys(stored), ...Object.keys(given)])].sort();
    for (const key of keys) {
      const difference = firstConfigDifference(stored[key], given[key], ignore, `${path}.${key}`);
      if (difference) return difference;
    }
    return undefined;
  }
  return Object.is(stored, given) ? undefined : { path: path === '' ? 'config' : path, stored, given };
}
