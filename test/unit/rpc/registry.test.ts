import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../../src/errors.js';
import { silentLogger, type Logger } from '../../../src/logger.js';
import { RpcRegistry, type RpcMethod } from '../../../src/rpc/registry.js';
import { RpcServer } from '../../../src/rpc/server.js';

const m = (namespace: string, name: string, extra: Partial<RpcMethod> = {}): RpcMethod => ({
  namespace,
  name,
  invoke: () => name,
  ...extra,
});

describe('RpcRegistry', () => {
  it('registers methods under <namespace>_<name> and finds them', () => {
    const registry = new RpcRegistry();
    const method = m('chain', 'getLastBlock');
    registry.register(method);
    registry.register(m('dynamicReward', 'getAnnualInflation2'));
    expect(registry.get('chain_getLastBlock')).toBe(method);
    expect(registry.get('chain_getlastblock')).toBeUndefined();
    expect(registry.get('chain')).toBeUndefined();
    expect(registry.get('getLastBlock')).toBeUndefined();
  });

  it('lists method names sorted, as a fresh array each time, and sees later registrations', () => {
    const registry = new RpcRegistry();
    for (const [ns, name] of [
      ['token', 'getBalance'],
      ['app', 'getRegisteredEndpoints'],
      ['chain', 'getBlockByID'],
      ['auth', 'getAuthAccount'],
    ] as const) {
      registry.register(m(ns, name));
    }
    const names = registry.methodNames();
    expect(names).toEqual(['app_getRegisteredEndpoints', 'auth_getAuthAccount', 'chain_getBlockByID', 'token_getBalance']);
    names.push('mutated');
    expect(registry.methodNames()).toHaveLength(4);
    registry.register(m('pos', 'getStaker'));
    expect(registry.methodNames()).toEqual([
      'app_getRegisteredEndpoints',
      'auth_getAuthAccount',
      'chain_getBlockByID',
      'pos_getStaker',
      'token_getBalance',
    ]);
  });

  it('refuses a duplicate name', () => {
    const registry = new RpcRegistry();
    registry.register(m('chain', 'getLastBlock'));
    expect(() => registry.register(m('chain', 'getLastBlock'))).toThrow(
      new InvalidParamsError('RPC method chain_getLastBlock is already registered.'),
    );
  });

  it.each([
    ['', 'x'],
    ['chain_x', 'y'],
    ['1chain', 'y'],
    ['chain', ''],
    ['chain', 'get_block'],
    ['chain', 'get-block'],
    ['ch ain', 'get'],
  ])('refuses the malformed name %j / %j', (namespace, name) => {
    expect(() => new RpcRegistry().register(m(namespace, name))).toThrow(InvalidParamsError);
  });

  it('refuses a params schema the validator cannot compile, at registration', () => {
    const registry = new RpcRegistry();
    expect(() => registry.register(m('x', 'y', { request: { $ref: '#/a' } }))).toThrow(/RPC method x_y has an unusable params schema/);
    expect(registry.get('x_y')).toBeUndefined();
    registry.register(m('x', 'z', { request: { type: 'object', properties: { a: { type: 'string' } } } }));
    expect(registry.methodNames()).toEqual(['x_z']);
  });

  it('registers events, lists them sorted, and refuses duplicates and malformed names', () => {
    const registry = new RpcRegistry();
    for (const name of ['chain_newBlock', 'app_ready', 'pos_validatorBanned']) registry.registerEvent(name);
    expect(registry.eventNames()).toEqual(['app_ready', 'chain_newBlock', 'pos_validatorBanned']);
    expect(() => registry.registerEvent('app_ready')).toThrow(new InvalidParamsError('RPC event app_ready is already registered.'));
    for (const bad of ['', 'a b', 'a\nb', 'x'.repeat(129)]) expect(() => registry.registerEvent(bad)).toThrow(InvalidParamsError);
    expect(registry.eventNames()).toHaveLength(3);
  });
});

describe('RpcServer warm-ups', () => {
  it('starts the registry warm-ups once it listens and stops them when it stops', async () => {
    const registry = new RpcRegistry();
    const events: string[] = [];
    registry.addWarmUp((onError) => {
      events.push('started');
      onError(new Error('reported'));
      return () => events.push('stopped');
    });
    const logged: unknown[] = [];
    const logger = { ...silentLogger, child: () => ({ ...silentLogger, debug: (fields: unknown) => logged.push(fields) }) } as Logger;
    const server = new RpcServer({ modes: ['http'], host: '127.0.0.1', port: 0, allowedMethods: [] }, registry, logger);
    expect(events).toEqual([]);
    await server.start();
    expect(events).toEqual(['started']);
    expect(logged).toHaveLength(1);
    await server.stop();
    expect(events).toEqual(['started', 'stopped']);
  });
});
