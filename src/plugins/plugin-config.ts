/**
 * The config's `plugins` section: `{ "<name>": { "path": FILE, ...options } }`.
 * The key is the plugin's name (its RPC namespace); `path` is the file to load; every other key
 * is handed to the plugin as its options. Lisk Core configs keep settings of Lisk's own plugins
 * here (no `path`): the chain connector's (`chainConnector`) is Basalt's built-in relayer
 * (built-in-plugins.ts); Basalt cannot run the others, so they are skipped with a warning.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { isBuiltInPlugin } from './built-in-plugins.js';
import type { PluginOptions } from './plugin.js';

/** One plugin to load. */
export interface PluginEntry {
  readonly name: string;
  /** Absolute path of an existing file. */
  readonly path: string;
  readonly options: PluginOptions;
}

/** A built-in plugin the config turns on: its entry has no `path`. */
export interface BuiltInPluginEntry {
  readonly name: string;
  readonly options: PluginOptions;
}

export interface PluginEntries {
  readonly entries: readonly PluginEntry[];
  readonly builtIns: readonly BuiltInPluginEntry[];
  /** Entries without `path`, as warnings naming their key. */
  readonly warnings: readonly string[];
}

/** Letters and digits, starting with a letter: the RPC registry's rule for a namespace. */
export const PLUGIN_NAME = /^[a-zA-Z][a-zA-Z0-9]*$/;

/**
 * Reads the `plugins` section. Relative paths are resolved against `baseDir` (`~` is the home
 * directory). Throws ConfigError naming the key for a malformed entry or a missing file.
 */
export function readPluginEntries(section: unknown, baseDir: string): PluginEntries {
  if (section === undefined || section === null) return { entries: [], builtIns: [], warnings: [] };
  if (typeof section !== 'object' || Array.isArray(section)) throw new ConfigError('.plugins: must be an object');
  const entries: PluginEntry[] = [];
  const builtIns: BuiltInPluginEntry[] = [];
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(section)) {
    const key = `.plugins.${name}`;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${key}: must be an object`);
    const { path, ...options } = value as Record<string, unknown>;
    if (path === undefined && isBuiltInPlugin(name)) {
      builtIns.push({ name, options });
      continue;
    }
    if (path === undefined) {
      warnings.push(`${key} has no "path": Basalt only runs plugins it can load from a file; the entry is ignored.`);
      continue;
    }
    if (!PLUGIN_NAME.test(name)) {
      throw new ConfigError(`${key}: a plugin name must be letters and digits, starting with a letter (it is the plugin's RPC namespace)`);
    }
    if (typeof path !== 'string' || path === '') throw new ConfigError(`${key}.path: must be a non-empty string`);
    const file = resolvePluginPath(path, baseDir);
    if (!existsSync(file)) throw new ConfigError(`${key}.path: "${path}" not found (looked at ${file})`);
    entries.push({ name, path: file, options });
  }
  return { entries, builtIns, warnings };
}

function resolvePluginPath(path: string, baseDir: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(baseDir, path);
}
