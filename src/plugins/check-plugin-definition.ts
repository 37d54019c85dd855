/**
 * Checks what a plugin file exported before the node uses any of it, so that a malformed plugin
 * fails the start with a message naming the member, not later as a -32603 or a crash mid-block.
 */
import { ConfigError } from '../config/config-error.js';
import type { BasaltPlugin } from './plugin.js';
import { PLUGIN_NAME } from './plugin-config.js';

/** Namespaces the engine serves; a plugin may not take one (its methods would mix with the engine's). */
export const ENGINE_NAMESPACES: ReadonlySet<string> = new Set([
  'app',
  'chain',
  'consensus',
  'generator',
  'network',
  'state',
  'system',
  'txpool',
]);

const MEMBERS: ReadonlySet<string> = new Set(['name', 'modules', 'endpoints', 'events', 'load', 'unload']);

/**
 * `exported` as a plugin named `name` (the config key `key` is used in messages). Throws
 * ConfigError for anything that is not a usable BasaltPlugin.
 */
export function checkPluginDefinition(exported: unknown, name: string, key: string): BasaltPlugin {
  if (exported === null || typeof exported !== 'object') {
    throw new ConfigError(`${key}: the plugin file must export a plugin object as its default export (see src/plugins/README.md)`);
  }
  const plugin = exported as Record<string, unknown>;
  for (const member of Object.keys(plugin)) {
    if (!MEMBERS.has(member)) throw new ConfigError(`${key}: unknown plugin member "${member}" (expected ${[...MEMBERS].join(', ')})`);
  }
  if (ENGINE_NAMESPACES.has(name)) throw new ConfigError(`${key}: "${name}" is an engine namespace; choose another plugin name`);
  if (plugin.name !== undefined && plugin.name !== name) {
    throw new ConfigError(`${key}: the plugin calls itself "${String(plugin.name)}"; its config key must be the same name`);
  }
  for (const hook of ['modules', 'load', 'unload'] as const) {
    if (plugin[hook] !== undefined && typeof plugin[hook] !== 'function') throw new ConfigError(`${key}: "${hook}" must be a function`);
  }
  checkEndpoints(plugin.endpoints, key);
  checkEvents(plugin.events, key);
  return plugin as BasaltPlugin;
}

function checkEndpoints(endpoints: unknown, key: string): void {
  if (endpoints === undefined) return;
  if (endpoints === null || typeof endpoints !== 'object' || Array.isArray(endpoints))
    throw new ConfigError(`${key}: "endpoints" must be an object`);
  for (const [method, endpoint] of Object.entries(endpoints)) {
    const where = `${key}: endpoint "${method}"`;
    if (!PLUGIN_NAME.test(method)) throw new ConfigError(`${where}: a method name must be letters and digits, starting with a letter`);
    if (endpoint === null || typeof endpoint !== 'object') throw new ConfigError(`${where} must be an object with a handle function`);
    const { handle, request, sensitive } = endpoint as Record<string, unknown>;
    if (typeof handle !== 'function') throw new ConfigError(`${where}: "handle" must be a function`);
    if (request !== undefined && (request === null || typeof request !== 'object'))
      throw new ConfigError(`${where}: "request" must be a JSON schema object`);
    if (sensitive !== undefined && typeof sensitive !== 'boolean') throw new ConfigError(`${where}: "sensitive" must be true or false`);
  }
}

function checkEvents(events: unknown, key: string): void {
  if (events === undefined) return;
  if (!Array.isArray(events)) throw new ConfigError(`${key}: "events" must be an array of event names`);
  const seen = new Set<string>();
  for (const event of events) {
    if (typeof event !== 'string' || !PLUGIN_NAME.test(event)) {
      throw new ConfigError(`${key}: event ${JSON.stringify(event)} must be letters and digits, starting with a letter`);
    }
    if (seen.has(event)) throw new ConfigError(`${key}: event "${event}" is declared twice`);
    seen.add(event);
  }
}
