/**
 * Basalt's extension API (src/plugins/README.md): what a plugin file
 * imports to define RPC methods, events and custom state-machine modules, and the loader the
 * node's composition root uses. One import gives a plugin author everything a module needs.
 */
export { definePlugin } from './plugin.js';
export type {
  BasaltPlugin,
  ModuleSetup,
  NodeEventListener,
  PluginChainReader,
  PluginContext,
  PluginEndpoint,
  PluginOptions,
} from './plugin.js';
export { loadPlugins, type PluginLoadContext } from './load-plugins.js';
export { LoadedPlugins } from './loaded-plugins.js';
export type { LoadedPlugin, ModuleSetupInput, PluginHost, PluginRegistrations } from './loaded-plugins.js';
export { readPluginEntries, type PluginEntries, type PluginEntry } from './plugin-config.js';

// The module framework (lisk-sdk BaseModule, BaseCommand, BaseStore, BaseEvent, ...).
export * from '../modules/base/index.js';
export type { ModuleInitArgs, GenesisConfig } from '../config/genesis-config.js';
export type { MainchainModules } from '../modules/mainchain.js';
export type { ChainModules } from '../modules/chain-modules.js';
export type { StateReader, StateWriter, IterateOptions } from '../state/state-view.js';
export type { BlockHeader } from '../chain/block-header.js';
export type { Block } from '../chain/block.js';
export type { Transaction } from '../chain/transaction.js';
export type { EventProps } from '../chain/event.js';

// What module code needs most: schemas and encoding, addresses, the errors RPC answers show.
export { codec, encodeLisk32Address, decodeLisk32Address, isValidLisk32Address, type Schema } from '../codec/index.js';
export { BasaltError, InvalidParamsError, NotFoundError, ValidationError } from '../errors.js';
