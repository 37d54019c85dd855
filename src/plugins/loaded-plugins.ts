/**
 * The plugins of a node, loaded and checked, and everything the composition root does with
 * them, in the order it does it:
 *
 *   createModules  → before the chain opens: custom modules appended after the mainchain ones
 *   attach         → after it opened: the plugins' RPC methods and event names for the registry
 *   start          → once the registry exists, before RPC serves: `load` hooks, `invoke` enabled
 *   notify         → every node event, as published to RPC subscribers
 *   stop           → at shutdown: `unload` hooks, listeners dropped
 */
import type { GenesisConfig } from '../config/genesis-config.js';
import { ConfigError } from '../config/config-error.js';
import { InvalidParamsError, InvariantError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Module } from '../modules/base/index.js';
import type { ChainModules } from '../modules/chain-modules.js';
import type { RpcMethod, RpcRegistry } from '../rpc/registry.js';
import type { StateReader } from '../state/state-view.js';
import { ENGINE_NAMESPACES } from './check-plugin-definition.js';
import { createInProcessInvoker, type Invoke } from './in-process-invoker.js';
import { NodeEventBus } from './node-event-bus.js';
import type { BasaltPlugin, NodeEventListener, PluginContext, PluginOptions } from './plugin.js';
import { createPluginChainReader, type ChainStoreGetters } from './plugin-chain-reader.js';
import { PLUGIN_NAME } from './plugin-config.js';
import { withNodeErrors } from './plugin-errors.js';

/** A checked plugin and the config entry it came from. */
export interface LoadedPlugin {
  readonly name: string;
  readonly path: string;
  readonly options: PluginOptions;
  readonly definition: BasaltPlugin;
}

/** What `createModules` needs: the chain's module set so far and the config it was built from. */
export interface ModuleSetupInput {
  readonly mainchain: ChainModules;
  readonly genesisConfig: GenesisConfig;
  /** The config's `modules` section; a custom module's `init` gets its own entry (or `{}`). */
  readonly moduleConfigs: Readonly<Record<string, Record<string, unknown>>>;
}

/** What the running node lends its plugins. */
export interface PluginHost {
  readonly chainID: Buffer;
  readonly chainStore: ChainStoreGetters;
  /** The committed module state, read at call time. */
  readonly moduleState: () => StateReader;
  /** Publishes an event to RPC subscribers and to `notify` (the node's own publish function). */
  publish(event: string, data: unknown): void;
}

/** What `attach` gives the registry builder. */
export interface PluginRegistrations {
  readonly methods: readonly RpcMethod[];
  /** Full event names (`<plugin>_<event>`). */
  readonly events: readonly string[];
}

type State = 'new' | 'attached' | 'started' | 'stopped';

export class LoadedPlugins {
  private readonly bus: NodeEventBus;
  private readonly contexts = new Map<string, PluginContext>();
  private readonly loaded: LoadedPlugin[] = [];
  private readonly moduleNames = new Set<string>();
  private invoker: Invoke | undefined;
  private state: State = 'new';

  constructor(
    readonly plugins: readonly LoadedPlugin[],
    /** Config entries that were skipped, as log lines. */
    readonly warnings: readonly string[],
    private readonly logger: Logger,
  ) {
    this.bus = new NodeEventBus(logger.child({ component: 'plugins' }));
  }

  /** The loaded plugins' names, in config order. */
  get names(): string[] {
    return this.plugins.map((plugin) => plugin.name);
  }

  /**
   * Calls every plugin's `modules` hook and `init`s what it returns, checking names (letters and
   * digits, unique across the chain's modules, not an engine namespace). Returns the modules to
   * append, in config order then hook order. Throws ConfigError naming the plugin.
   */
  createModules(input: ModuleSetupInput): Module[] {
    for (const module of input.mainchain.list) this.moduleNames.add(module.name);
    const added: Module[] = [];
    for (const plugin of this.plugins) {
      const hook = plugin.definition.modules;
      if (hook === undefined) continue;
      const key = `.plugins.${plugin.name}`;
      const modules = hook.call(plugin.definition, {
        options: plugin.options,
        genesisConfig: input.genesisConfig,
        mainchain: input.mainchain,
        logger: this.logger.child({ plugin: plugin.name }),
      });
      if (!Array.isArray(modules)) throw new ConfigError(`${key}: "modules" must return an array of modules`);
      for (const module of modules as unknown[]) {
        const name = (module as { name?: unknown } | null)?.name;
        if (typeof name !== 'string' || !PLUGIN_NAME.test(name)) {
          throw new ConfigError(`${key}: a module's name must be letters and digits, starting with a letter (got ${JSON.stringify(name)})`);
        }
        if (this.moduleNames.has(name) || ENGINE_NAMESPACES.has(name)) {
          throw new ConfigError(`${key}: module name "${name}" is already taken by the node`);
        }
        const checked = module as Module;
        if (typeof checked.metadata !== 'function' || !Array.isArray(checked.commands) || typeof checked.endpoints !== 'object') {
          throw new ConfigError(`${key}: module "${name}" lacks commands, endpoints or metadata() (see src/modules/base/module.ts)`);
        }
        checked.init?.({ genesisConfig: input.genesisConfig, moduleConfig: input.moduleConfigs[name] ?? {} });
        this.moduleNames.add(name);
        added.push(checked);
      }
    }
    return added;
  }

  /** Builds each plugin's context over `host` and returns its RPC methods and event names. */
  attach(host: PluginHost): PluginRegistrations {
    if (this.state !== 'new') throw new InvalidParamsError('Plugins are attached once, before they start.');
    this.state = 'attached';
    const chain = createPluginChainReader(host.chainID, host.chainStore, host.moduleState);
    const methods: RpcMethod[] = [];
    const events: string[] = [];
    for (const plugin of this.plugins) {
      const { name, definition } = plugin;
      if (this.moduleNames.has(name)) {
        throw new ConfigError(
          `.plugins.${name}: a module of this chain is called "${name}"; the plugin needs another name for its RPC namespace`,
        );
      }
      const declared = new Set(definition.events ?? []);
      const context: PluginContext = Object.freeze({
        name,
        options: plugin.options,
        logger: this.logger.child({ plugin: name }),
        chain,
        publish: (event: string, data: unknown) => {
          if (!declared.has(event)) throw new InvalidParamsError(`Plugin ${name} publishes "${event}", which is not in its events.`);
          host.publish(`${name}_${event}`, data);
        },
        subscribe: (event: string, listener: NodeEventListener) => this.bus.subscribe(event, listener),
        invoke: <T>(method: string, params?: Record<string, unknown>): Promise<T> => {
          if (this.invoker === undefined) return Promise.reject(new InvariantError('invoke is available once the plugins have started.'));
          return this.invoker<T>(method, params);
        },
      });
      this.contexts.set(name, context);
      for (const [methodName, endpoint] of Object.entries(definition.endpoints ?? {})) {
        methods.push({
          namespace: name,
          name: methodName,
          request: endpoint.request,
          sensitive: endpoint.sensitive === true,
          invoke: (params) => withNodeErrors(() => endpoint.handle(params, context)),
        });
      }
      for (const event of declared) events.push(`${name}_${event}`);
    }
    return { methods, events };
  }

  /**
   * Runs the `load` hooks in config order once the registry holds every method (so `invoke`
   * works from the first hook on). If one throws, the ones already loaded are unloaded and the
   * error propagates: a node does not run with half its plugins.
   */
  async start(registry: RpcRegistry): Promise<void> {
    if (this.state !== 'attached') throw new InvalidParamsError('Plugins start once, after attach.');
    this.state = 'started';
    this.invoker = createInProcessInvoker(registry, this.logger.child({ component: 'plugins' }));
    for (const plugin of this.plugins) {
      const context = this.contexts.get(plugin.name) as PluginContext;
      try {
        await plugin.definition.load?.call(plugin.definition, context);
      } catch (error) {
        await this.stop();
        throw new ConfigError(`Plugin ${plugin.name} failed to load: ${(error as Error).message}`);
      }
      this.loaded.push(plugin);
      this.logger.info({ plugin: plugin.name, path: plugin.path }, 'Plugin loaded');
    }
  }

  /** Delivers a node event to the plugins that listen to it (never throws). */
  notify(event: string, data: unknown): void {
    if (this.state === 'started') this.bus.notify(event, data);
  }

  /** Runs the `unload` hooks in reverse order; failures are logged, never thrown. Idempotent. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    for (const plugin of this.loaded.splice(0).reverse()) {
      try {
        await plugin.definition.unload?.call(plugin.definition);
      } catch (error) {
        this.logger.error({ plugin: plugin.name, err: error }, 'Plugin failed to unload');
      }
    }
    this.invoker = undefined;
  }
}
