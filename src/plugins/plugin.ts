/**
 * The plugin interface (the role of lisk-sdk's BasePlugin and of
 * `app.registerModule`, reshaped for a node whose plugins run in its own process): what a file
 * listed under the config's `plugins` section exports. See src/plugins/README.md.
 */
import type { BlockHeader } from '../chain/block-header.js';
import type { Block } from '../chain/block.js';
import type { EventProps } from '../chain/event.js';
import type { Transaction } from '../chain/transaction.js';
import type { GenesisConfig } from '../config/genesis-config.js';
import type { Logger } from '../logger.js';
import type { Module } from '../modules/base/index.js';
import type { ChainModules } from '../modules/chain-modules.js';
import type { StateReader } from '../state/state-view.js';

/** A plugin's own settings: its config entry without `path`. */
export type PluginOptions = Readonly<Record<string, unknown>>;

/**
 * What a plugin file exports as its default export. Every member is optional; a plugin may only
 * add modules, only serve RPC methods, only watch the chain, or all of it.
 */
export interface BasaltPlugin<Options extends PluginOptions = PluginOptions> {
  /**
   * The plugin's name, which is also the RPC namespace of its methods and events. The key of its
   * config entry is the name; when the file names itself too, the two must agree.
   */
  readonly name?: string;
  /**
   * State-machine modules the plugin brings (lisk-sdk `app.registerModule`). They run after the
   * mainchain modules, in the order returned, and their endpoints, commands, events and stores
   * appear in the RPC registry and in `system_getMetadata` like any module's. Called once, before
   * the chain opens; the node then calls each module's `init` with its `modules.<name>` config.
   * Adding a module changes the chain's state machine: a node with it follows a different chain.
   */
  modules?(setup: ModuleSetup<Options>): readonly Module[];
  /** RPC methods, served as `<plugin name>_<method name>`. */
  readonly endpoints?: Readonly<Record<string, PluginEndpoint<Options>>>;
  /** Events the plugin publishes, declared by their short names; subscribers see `<plugin name>_<event>`. */
  readonly events?: readonly string[];
  /**
   * Runs once the node has opened its chain, before the RPC server accepts requests: start
   * timers, subscribe to node events, fill caches. A throw stops the node's start.
   */
  load?(context: PluginContext<Options>): void | Promise<void>;
  /** Runs when the node stops, after the RPC server closed and before the chain store closes. */
  unload?(): void | Promise<void>;
}

/** What `modules()` receives. */
export interface ModuleSetup<Options extends PluginOptions = PluginOptions> {
  readonly options: Options;
  readonly genesisConfig: GenesisConfig;
  /** The chain's modules (a mainchain's or a sidechain's), for a custom module that calls their methods (token transfers, ...). */
  readonly mainchain: ChainModules;
  readonly logger: Logger;
}

/**
 * One RPC method of a plugin. `request` is a JSON schema (the codec validator's dialect, as
 * module endpoints use) that params are checked against before `handle` runs; a failure answers
 * -32602 naming the field. A `sensitive` method answers -32002 unless `rpc.allowedMethods` holds
 * the plugin's name or the method's full name. What `handle` throws becomes the error answer:
 * NotFoundError -32001, InvalidParamsError/ValidationError -32602, anything else -32603.
 */
export interface PluginEndpoint<Options extends PluginOptions = PluginOptions> {
  readonly request?: Readonly<Record<string, unknown>>;
  readonly sensitive?: boolean;
  handle(params: Record<string, unknown>, context: PluginContext<Options>): unknown | Promise<unknown>;
}

/** Called with the event's name and its data as RPC subscribers receive it (JSON values). */
export type NodeEventListener = (event: string, data: unknown) => void | Promise<void>;

/** A plugin's view of the running node. */
export interface PluginContext<Options extends PluginOptions = PluginOptions> {
  readonly name: string;
  readonly options: Options;
  readonly logger: Logger;
  /** Read-only chain data: blocks, transactions, events and the committed module state. */
  readonly chain: PluginChainReader;
  /**
   * Publishes the plugin's event `<name>_<event>` to RPC subscribers (WS and IPC) and to other
   * plugins. `event` is a short name declared in `events`; `data` must serialize to JSON.
   */
  publish(event: string, data: unknown): void;
  /**
   * Listens to node events: `chain_newBlock`, `chain_deleteBlock`, `chain_validatorsChanged`,
   * `txpool_newTransaction`, `app_ready`, `app_shutdown`, other plugins' events, or `*` for all.
   * Returns the function that stops listening. A listener's throw or rejection is logged and
   * never reaches the node.
   */
  subscribe(event: string, listener: NodeEventListener): () => void;
  /**
   * Calls any registered RPC method in-process, with the same params checks and result as a
   * client gets, but without access control: a plugin runs inside the node and is trusted.
   */
  invoke<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
}

/** Read-only access to the stored chain, always at its committed tip. */
export interface PluginChainReader {
  readonly chainID: Buffer;
  tipHeight(): number;
  finalizedHeight(): number;
  genesisHeight(): number;
  tipHeader(): BlockHeader;
  getHeaderByHeight(height: number): BlockHeader | undefined;
  getHeaderByID(id: Buffer): BlockHeader | undefined;
  getBlockByHeight(height: number): Block | undefined;
  getBlockByID(id: Buffer): Block | undefined;
  getTransactionByID(id: Buffer): Transaction | undefined;
  /** The events of the block at `height`, or undefined when pruned or unknown. */
  getEvents(height: number): readonly EventProps[] | undefined;
  /** The committed module state (read with a module's ModuleStore.get / iterate). */
  stateReader(): StateReader;
}

/**
 * Identity function that gives a plugin definition its type (and its options' type) without an
 * annotation: `export default definePlugin({ ... })`.
 */
export function definePlugin<Options extends PluginOptions = PluginOptions>(plugin: BasaltPlugin<Options>): BasaltPlugin<Options> {
  return plugin;
}
