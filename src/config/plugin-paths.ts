/**
 * Plugin paths made absolute when a config is settled, so that the copy a data directory keeps
 * (`<dataPath>/config/config.json`) still finds the files whatever directory the node is later
 * started from. The config room says which candidates a relative path may mean (the folder of
 * the config file that wrote it, the data path, ...); the first that exists wins.
 */
import { existsSync } from 'node:fs';

/**
 * A copy of the `plugins` section whose entries' `path` is replaced by the first existing file
 * among `candidatesOf(name, path)`. Entries without a string `path`, or whose file exists
 * nowhere, are kept as they are: the loader reports them with the key at fault.
 */
export function absolutePluginPaths(
  section: Record<string, unknown>,
  candidatesOf: (name: string, path: string) => readonly string[],
): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(section)) {
    const path = (entry as { path?: unknown } | null)?.path;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry) || typeof path !== 'string' || path === '') {
      resolved[name] = entry;
      continue;
    }
    const found = candidatesOf(name, path).find((candidate) => existsSync(candidate));
    resolved[name] = found === undefined ? entry : { ...entry, path: found };
  }
  return resolved;
}
