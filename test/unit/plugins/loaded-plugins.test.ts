/**
 * The plugin lifecycle as the composition root drives it (createModules → attach → start →
 * notify → stop), with a real RpcRegistry and RpcDispatcher: namespaced methods, the sensitive
 * flag under rpc.allowedMethods, params checks, error codes, events, invoke and the hooks.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { InvalidParamsError, NotFoundError } from '../../../src/errors.js';
import type { ModuleInitArgs } from '../../../src/config/genesis-config.js';
import type { Module } from '../../../src/modules/base/index.js';
import { createMainchainModules } from '../../../src/modules/mainchain.js';
import { LoadedPlugins, type LoadedPlugin, type PluginHost } from '../../../src/plugins/loaded-plugins.js';
import type { BasaltPlugin, PluginContext } from '../../../src/plugins/plugin.js';
import type { ChainStoreGetters } from '../../../src/plugins/plugin-chain-reader.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { RawJson } from '../../../src/rpc/raw-json.js';
import { RpcRegistry } from '../../../src/rpc/registry.js';
import { MemoryState } from '../../../src/state/memory-state.js';
import { testGenesisConfig } from '../../support/module-harness.js';
import { type LogLine, recordingLogger } from '../../support/recording-logger.js';

function pluginsOf(definitions: Record<string, BasaltPlugin>, lines: LogLine[] = []): LoadedPlugins {
  const loaded: LoadedPlugin[] = Object.entries(definitions).map(([name, definition]) => ({
    name,
    path: `/plugins/${name}.js`,
    options: { size: 2 },
    definition,
  }));
  return new LoadedPlugins(loaded, [], recordingLogger(lines));
}

const mainchain = () => createMainchainModules({ genesisConfig: testGenesisConfig, moduleConfigs: {} });

/** A module with nothing but a name and an init that records what it got. */
function bareModule(name: string, inits: ModuleInitArgs[] = []): Module {
  return {
    name,
    commands: [],
    stores: [],
    events: [],
    endpoints: {},
    metadata: () => ({ commands: [], events: [], stores: [], endpoints: [], assets: [] }),
    init: (args) => void inits.push(args),
  };
}

/** A chain store stand-in: heights 0..2, block 2 without transactions. */
const chainStore = {
  tipHeight: () => 2,
  finalizedHeight: () => 1,
  genesisHeight: () => 0,
  getHeaderByHeight: (height: number) => (height <= 2 ? ({ height } as never) : undefined),
  getHeaderById: () => undefined,
  getBlockByHeight: (height: number) => {
    if (height > 2) throw new NotFoundError(`Block at height ${height} does not exist.`);
    return { header: { height } } as never;
  },
  getBlockById: () => undefined,
  getTransaction: () => undefined,
  getEvents: (height: number) => (height === 2 ? [] : undefined),
} as unknown as ChainStoreGetters;

function hostWith(published: [string, unknown][], state = new MemoryState()): PluginHost {
  return {
    chainID: Buffer.from('04000000', 'hex'),
    chainStore,
    moduleState: () => state,
    publish: (event, data) => void published.push([event, data]),
  };
}

async function call(
  dispatcher: RpcDispatcher,
  method: string,
  params?: unknown,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const answer = await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  return JSON.parse(answer as string) as { result?: unknown; error?: { code: number; message: string } };
}

describe('LoadedPlugins.createModules', () => {
  it('returns the modules of every plugin in config order and inits each with its config section', () => {
    const inits: ModuleInitArgs[] = [];
    const setups: unknown[] = [];
    const plugins = pluginsOf({
      first: {
        modules: (setup) => {
          setups.push(setup.options, setup.genesisConfig, setup.mainchain.list.length);
          return [bareModule('alpha', inits), bareModule('beta', inits)];
        },
      },
      none: {},
      second: { modules: () => [bareModule('gamma', inits)] },
    });
    const modules = plugins.createModules({
      mainchain: mainchain(),
      genesisConfig: testGenesisConfig,
      moduleConfigs: { beta: { depth: 3 } },
    });
    expect(modules.map((module) => module.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(setups).toEqual([{ size: 2 }, testGenesisConfig, 8]);
    expect(inits).toEqual([
      { genesisConfig: testGenesisConfig, moduleConfig: {} },
      { genesisConfig: testGenesisConfig, moduleConfig: { depth: 3 } },
      { genesisConfig: testGenesisConfig, moduleConfig: {} },
    ]);
  });

  it.each([
    [[bareModule('token')], '.plugins.p: module name "token" is already taken by the node'],
    [[bareModule('chain')], '.plugins.p: module name "chain" is already taken by the node'],
    [[bareModule('dup'), bareModule('dup')], '.plugins.p: module name "dup" is already taken by the node'],
    [[bareModule('bad-name')], '.plugins.p: a module\'s name must be letters and digits, starting with a letter (got "bad-name")'],
    [
      [{ name: 'noMetadata', commands: [], endpoints: {} }],
      '.plugins.p: module "noMetadata" lacks commands, endpoints or metadata() (see src/modules/base/module.ts)',
    ],
    ['not an array', '.plugins.p: "modules" must return an array of modules'],
  ])('refuses %#', (returned, message) => {
    const plugins = pluginsOf({ p: { modules: () => returned as never } });
    expect(() => plugins.createModules({ mainchain: mainchain(), genesisConfig: testGenesisConfig, moduleConfigs: {} })).toThrow(
      new ConfigError(message),
    );
  });
});

describe('LoadedPlugins.attach and the RPC registry', () => {
  const secretCalls: unknown[] = [];
  const feed: BasaltPlugin = {
    events: ['tick'],
    endpoints: {
      latest: {
        request: { type: 'object', properties: { limit: { type: 'integer', minimum: 1 } } },
        handle: (params, context) => ({ limit: params.limit ?? null, plugin: context.name, options: context.options }),
      },
      secret: { sensitive: true, handle: (params) => void secretCalls.push(params) },
      missing: {
        handle: () => {
          throw new NotFoundError('No such hello.');
        },
      },
      foreignMissing: {
        // What a NotFoundError from another copy of Basalt looks like to this one.
        handle: async () => {
          throw Object.assign(new Error('Not here either.'), { code: 'ERR_NOT_FOUND' });
        },
      },
      broken: {
        handle: () => {
          throw new Error('secret internals');
        },
      },
      raw: { handle: () => new RawJson('{"cached":true}') },
    },
  };

  function registryWith(plugins: LoadedPlugins, published: [string, unknown][] = []): RpcRegistry {
    const { methods, events } = plugins.attach(hostWith(published));
    const registry = new RpcRegistry();
    for (const method of methods) registry.register(method);
    for (const event of events) registry.registerEvent(event);
    return registry;
  }

  it('registers `<plugin>_<method>` methods and `<plugin>_<event>` events', () => {
    const registry = registryWith(pluginsOf({ feed }));
    expect(registry.methodNames()).toEqual([
      'feed_broken',
      'feed_foreignMissing',
      'feed_latest',
      'feed_missing',
      'feed_raw',
      'feed_secret',
    ]);
    expect(registry.eventNames()).toEqual(['feed_tick']);
    expect(registry.get('feed_secret')?.sensitive).toBe(true);
    expect(registry.get('feed_latest')?.sensitive).toBe(false);
  });

  it('answers a sensitive plugin method -32002 unless allowedMethods names the plugin or the method', async () => {
    const registry = registryWith(pluginsOf({ feed }));
    const logger = recordingLogger();
    const closed = new RpcDispatcher(registry, { allowedMethods: ['system', 'feed_latest'], maxBatchSize: 10, logger });
    expect(await call(closed, 'feed_secret', { a: 1 })).toMatchObject({
      error: { code: -32002, message: 'Requested method or namespace is disabled in node config.' },
    });
    expect(secretCalls).toEqual([]);
    // Public methods need no entry.
    expect((await call(closed, 'feed_latest')).result).toEqual({ limit: null, plugin: 'feed', options: { size: 2 } });
    for (const allowed of [['feed'], ['feed_secret'], ['*']]) {
      const open = new RpcDispatcher(registry, { allowedMethods: allowed, maxBatchSize: 10, logger });
      expect(await call(open, 'feed_secret', { a: 1 })).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    expect(secretCalls).toEqual([{ a: 1 }, { a: 1 }, { a: 1 }]);
  });

  it('checks params against the request schema and maps what handlers throw to JSON-RPC codes', async () => {
    const lines: LogLine[] = [];
    const dispatcher = new RpcDispatcher(registryWith(pluginsOf({ feed })), {
      allowedMethods: [],
      maxBatchSize: 10,
      logger: recordingLogger(lines),
    });
    expect((await call(dispatcher, 'feed_latest', { limit: 0 })).error).toEqual({
      code: -32602,
      message: 'Invalid params: params.limit: must be >= 1',
    });
    expect((await call(dispatcher, 'feed_latest', { limit: 4 })).result).toEqual({ limit: 4, plugin: 'feed', options: { size: 2 } });
    expect((await call(dispatcher, 'feed_missing')).error).toEqual({ code: -32001, message: 'No such hello.' });
    expect((await call(dispatcher, 'feed_foreignMissing')).error).toEqual({ code: -32001, message: 'Not here either.' });
    expect((await call(dispatcher, 'feed_broken')).error).toEqual({ code: -32603, message: 'Internal error.' });
    expect(lines.filter((line) => line.level === 'error').map((line) => (line.fields as { err: Error }).err.message)).toEqual([
      'secret internals',
    ]);
    expect((await call(dispatcher, 'feed_raw')).result).toEqual({ cached: true });
  });

  it('publishes declared events under the plugin namespace and refuses undeclared ones', async () => {
    const published: [string, unknown][] = [];
    let context: PluginContext | undefined;
    const plugins = pluginsOf({ feed: { ...feed, load: (ctx) => void (context = ctx) } });
    await plugins.start(registryWith(plugins, published));
    context?.publish('tick', { n: 1 });
    expect(published).toEqual([['feed_tick', { n: 1 }]]);
    expect(() => context?.publish('tock', {})).toThrow(new InvalidParamsError('Plugin feed publishes "tock", which is not in its events.'));
  });

  it('refuses a plugin named like a module of the chain, and a second attach', () => {
    const plugins = pluginsOf({ hello: { modules: () => [bareModule('hello')] } });
    plugins.createModules({ mainchain: mainchain(), genesisConfig: testGenesisConfig, moduleConfigs: {} });
    expect(() => plugins.attach(hostWith([]))).toThrow(
      '.plugins.hello: a module of this chain is called "hello"; the plugin needs another name for its RPC namespace',
    );
    const token = pluginsOf({ token: {} });
    token.createModules({ mainchain: mainchain(), genesisConfig: testGenesisConfig, moduleConfigs: {} });
    expect(() => token.attach(hostWith([]))).toThrow('a module of this chain is called "token"');
    const twice = pluginsOf({ a: {} });
    twice.attach(hostWith([]));
    expect(() => twice.attach(hostWith([]))).toThrow('Plugins are attached once, before they start.');
  });
});

describe('LoadedPlugins lifecycle', () => {
  it('loads in config order, delivers node events once started, unloads in reverse order', async () => {
    const order: string[] = [];
    const events: string[] = [];
    const plugins = pluginsOf({
      a: {
        load: (context) => {
          order.push('load a');
          context.subscribe('chain_newBlock', (event, data) => void events.push(`a ${event} ${JSON.stringify(data)}`));
        },
        unload: () => void order.push('unload a'),
      },
      b: {
        load: async (context) => {
          await Promise.resolve();
          order.push('load b');
          context.subscribe('*', (event) => void events.push(`b ${event}`));
        },
        unload: () => {
          order.push('unload b');
          throw new Error('cannot unload');
        },
      },
    });
    const { methods } = plugins.attach(hostWith([]));
    plugins.notify('chain_newBlock', { early: true });
    const registry = new RpcRegistry();
    for (const method of methods) registry.register(method);
    await plugins.start(registry);
    plugins.notify('chain_newBlock', new RawJson('{"blockHeader":{"height":5}}'));
    plugins.notify('app_ready', {});
    await plugins.stop();
    plugins.notify('chain_newBlock', { late: true });
    await plugins.stop();
    expect(order).toEqual(['load a', 'load b', 'unload b', 'unload a']);
    expect(events).toEqual(['a chain_newBlock {"blockHeader":{"height":5}}', 'b chain_newBlock', 'b app_ready']);
  });

  it('unloads the plugins already loaded when one fails to load, and names it', async () => {
    const order: string[] = [];
    const plugins = pluginsOf({
      a: { load: () => void order.push('load a'), unload: () => void order.push('unload a') },
      b: {
        load: () => {
          throw new Error('no database');
        },
        unload: () => void order.push('unload b'),
      },
      c: { load: () => void order.push('load c') },
    });
    plugins.attach(hostWith([]));
    await expect(plugins.start(new RpcRegistry())).rejects.toThrow(new ConfigError('Plugin b failed to load: no database'));
    expect(order).toEqual(['load a', 'unload a']);
  });

  it("lets a plugin invoke any method in-process, sensitive ones included, with the clients' checks", async () => {
    let context: PluginContext | undefined;
    const plugins = pluginsOf({
      p: {
        endpoints: {
          secret: {
            sensitive: true,
            request: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
            handle: (params) => ({ twice: (params.n as number) * 2 }),
          },
          gone: {
            handle: () => {
              throw new NotFoundError('Gone.');
            },
          },
        },
        load: (ctx) => void (context = ctx),
      },
    });
    const { methods } = plugins.attach(hostWith([]));
    const registry = new RpcRegistry();
    for (const method of methods) registry.register(method);
    registry.register({ namespace: 'system', name: 'getMetadata', invoke: () => new RawJson('{"modules":[]}') });
    await plugins.start(registry);
    const ctx = context as PluginContext;
    expect(await ctx.invoke('p_secret', { n: 21 })).toEqual({ twice: 42 });
    expect(await ctx.invoke('system_getMetadata')).toEqual({ modules: [] });
    await expect(ctx.invoke('p_secret', {})).rejects.toThrow(
      new InvalidParamsError("Invalid params: params: must have required property 'n'"),
    );
    await expect(ctx.invoke('p_gone')).rejects.toBeInstanceOf(NotFoundError);
    await expect(ctx.invoke('p_nothing')).rejects.toThrow('p_nothing failed (-32601): Method "p_nothing" not found.');
    await plugins.stop();
    await expect(ctx.invoke('p_secret', { n: 1 })).rejects.toThrow('invoke is available once the plugins have started.');
  });
});

describe('the chain reader plugins get', () => {
  it('reads through the chain store getters and gives a read-only state', async () => {
    const state = new MemoryState([{ key: Buffer.from('0102', 'hex'), value: Buffer.from('ff', 'hex') }]);
    let context: PluginContext | undefined;
    const plugins = pluginsOf({ p: { load: (ctx) => void (context = ctx) } });
    plugins.attach(hostWith([], state));
    await plugins.start(new RpcRegistry());
    const { chain } = context as PluginContext;
    expect(chain.chainID).toEqual(Buffer.from('04000000', 'hex'));
    chain.chainID[0] = 9;
    expect(chain.chainID).toEqual(Buffer.from('04000000', 'hex'));
    expect([chain.tipHeight(), chain.finalizedHeight(), chain.genesisHeight()]).toEqual([2, 1, 0]);
    expect(chain.tipHeader()).toEqual({ height: 2 });
    expect(chain.getBlockByHeight(2)).toEqual({ header: { height: 2 } });
    expect(chain.getBlockByHeight(3)).toBeUndefined();
    expect(chain.getEvents(2)).toEqual([]);
    expect(chain.getEvents(1)).toBeUndefined();
    const reader = chain.stateReader();
    expect(Object.keys(reader).sort()).toEqual(['get', 'has', 'iterate']);
    expect(reader.get(Buffer.from('0102', 'hex'))).toEqual(Buffer.from('ff', 'hex'));
    expect(Object.isFrozen(chain)).toBe(true);
  });
});
