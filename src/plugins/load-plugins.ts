import type { Logger } from '../logger.js';
import { BUILT_IN_PLUGINS } from './built-in-plugins.js';
import { checkPluginDefinition } from './check-plugin-definition.js';
import { importPluginFile } from './import-plugin-file.js';
import { LoadedPlugins, type LoadedPlugin } from './loaded-plugins.js';
import { readPluginEntries } from './plugin-config.js';

export interface PluginLoadContext {
  readonly logger: Logger;
  /** Where relative `path`s point (the config room stores them absolute; see README). */
  readonly baseDir: string;
}

/**
 * Loads the plugins the config's `plugins` section lists (format in
 * plugin-config.ts): imports each file, checks its default export and returns them ready for the
 * composition root (createModules → attach → start → notify → stop, see loaded-plugins.ts).
 * Nothing of a plugin runs here except its file's top-level code. Throws ConfigError naming the
 * entry at fault.
 */
export async function loadPlugins(section: unknown, context: PluginLoadContext): Promise<LoadedPlugins> {
  const { entries, builtIns, warnings } = readPluginEntries(section, context.baseDir);
  const plugins: LoadedPlugin[] = [];
  for (const { name, options } of builtIns) {
    const create = BUILT_IN_PLUGINS[name] as (typeof BUILT_IN_PLUGINS)[string];
    const definition = checkPluginDefinition(create({ dataPath: context.baseDir }), name, `.plugins.${name}`);
    plugins.push({ name, path: `built-in:${name}`, options, definition });
  }
  for (const entry of entries) {
    const key = `.plugins.${entry.name}`;
    const exported = await importPluginFile(entry.path, key);
    plugins.push({ ...entry, definition: checkPluginDefinition(exported, entry.name, key) });
  }
  for (const warning of warnings) context.logger.warn({}, warning);
  return new LoadedPlugins(plugins, warnings, context.logger);
}
