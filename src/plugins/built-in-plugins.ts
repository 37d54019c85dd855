/**
 * Plugins that ship with Basalt. Their config entry has no `path` (Lisk Core keeps the settings
 * of its own plugins that way): the key names the plugin and the other keys are its options.
 */
import { createChainConnectorPlugin } from './chain-connector/index.js';
import type { BasaltPlugin } from './plugin.js';

/** What a built-in plugin is made with. */
export interface BuiltInPluginSetup {
  /** The node's data directory. */
  readonly dataPath: string;
}

export const BUILT_IN_PLUGINS: Readonly<Record<string, (setup: BuiltInPluginSetup) => BasaltPlugin>> = {
  chainConnector: createChainConnectorPlugin,
};

export function isBuiltInPlugin(name: string): boolean {
  return Object.hasOwn(BUILT_IN_PLUGINS, name);
}
