/**
 * The adapter from module EndpointHandlers to RPC methods: the context is built per call from the
 * provider (state, chainID, logger, lazily the tip header), schemas and sensitivity carry over,
 * and what a handler throws keeps its JSON-RPC code.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/logger.js';
import type { EndpointContext, EndpointHandler, ExecutionHeader } from '../../../src/modules/base/index.js';
import {
  committedChainContext,
  endpointToRpcMethod,
  endpointsToRpcMethods,
  moduleRpcMethods,
  type EndpointContextProvider,
} from '../../../src/rpc/endpoint-adapter.js';
import type { StateReader } from '../../../src/state/state-view.js';
import { dispatcherFor } from './support.js';

function provider(counts: { header: number; state: number }): EndpointContextProvider {
  const state = { get: () => Buffer.from('v'), has: () => true, iterate: () => [] } as StateReader;
  return {
    chainID: Buffer.from('04000000', 'hex'),
    logger: silentLogger,
    stateReader: () => {
      counts.state += 1;
      return state;
    },
    tipHeader: () => {
      counts.header += 1;
      return { height: 42 } as ExecutionHeader;
    },
  };
}

const echo: EndpointHandler = {
  request: { type: 'object', required: ['address'], properties: { address: { type: 'string', format: 'lisk32' } } },
  handle: (context: EndpointContext) => ({ address: context.params.address, chainID: context.chainID.toString('hex') }),
};

describe('endpoint adapter', () => {
  it('keeps the request schema and the sensitivity, and names the method <namespace>_<name>', () => {
    const counts = { header: 0, state: 0 };
    const method = endpointToRpcMethod('token', 'getBalance', echo, provider(counts));
    expect(method).toMatchObject({ namespace: 'token', name: 'getBalance', request: echo.request, sensitive: false });
    const secret = endpointToRpcMethod('random', 'setHashOnion', { sensitive: true, handle: () => undefined }, provider(counts));
    expect(secret.sensitive).toBe(true);
  });

  it('passes validated params and builds the context per call; the header is read only when used, once', async () => {
    const counts = { header: 0, state: 0 };
    const p = provider(counts);
    const call = dispatcherFor([
      endpointToRpcMethod('token', 'echo', echo, p),
      endpointToRpcMethod(
        'chain2',
        'height',
        { handle: (ctx) => ({ a: ctx.header.height, b: ctx.header.height, v: ctx.state.get(Buffer.alloc(1))?.toString() }) },
        p,
      ),
    ]);
    const address = 'lskzbz9xu86seure5d9xdb8msbyo82ujxrq32wumg';
    expect((await call('token_echo', { address })).result).toEqual({ address, chainID: '04000000' });
    expect(counts).toEqual({ header: 0, state: 1 });
    expect((await call('chain2_height')).result).toEqual({ a: 42, b: 42, v: 'v' });
    expect(counts).toEqual({ header: 1, state: 2 });
    expect((await call('token_echo', { address: 'lsk123' })).error).toEqual({
      code: -32602,
      message: 'Invalid params: params.address: must match format "lisk32"',
    });
  });

  it('keeps the codes of what handlers throw, for synchronous and asynchronous handlers', async () => {
    const p = provider({ header: 0, state: 0 });
    const call = dispatcherFor(
      endpointsToRpcMethods(
        'pos',
        {
          missing: {
            handle: () => {
              throw new NotFoundError('Key 7160f868 does not exist.');
            },
          },
          missingLater: {
            handle: async () => {
              await Promise.resolve();
              throw new NotFoundError('later');
            },
          },
          broken: {
            handle: () => {
              throw new Error('disk on fire');
            },
          },
          fine: { handle: async () => ({ ok: true }) },
        },
        p,
      ),
    );
    expect((await call('pos_missing')).error).toEqual({ code: -32001, message: 'Key 7160f868 does not exist.' });
    expect((await call('pos_missingLater')).error).toEqual({ code: -32001, message: 'later' });
    expect((await call('pos_broken')).error).toEqual({ code: -32603, message: 'Internal error.' });
    expect((await call('pos_fine')).result).toEqual({ ok: true });
  });

  it('maps every endpoint of every module under the module name', () => {
    const p = provider({ header: 0, state: 0 });
    const methods = moduleRpcMethods(
      [
        { name: 'fee', endpoints: { getMinFeePerByte: { handle: () => 1 }, getFeeTokenID: { handle: () => 2 } } },
        { name: 'auth', endpoints: { getAuthAccount: echo } },
      ],
      p,
    );
    expect(methods.map((m) => `${m.namespace}_${m.name}`)).toEqual(['fee_getMinFeePerByte', 'fee_getFeeTokenID', 'auth_getAuthAccount']);
  });

  it('committedChainContext reads the tip header from the chain store at call time', () => {
    let tip = 1;
    const headers = new Map([
      [1, { height: 1 }],
      [2, { height: 2 }],
    ]);
    const state = {} as StateReader;
    const context = committedChainContext({
      chainStore: { tipHeight: () => tip, getHeaderByHeight: (height: number) => headers.get(height) as never },
      moduleState: state,
      chainID: Buffer.alloc(4),
      logger: silentLogger,
    });
    expect(context.tipHeader().height).toBe(1);
    tip = 2;
    expect(context.tipHeader().height).toBe(2);
    expect(context.stateReader()).toBe(state);
    tip = 3;
    expect(() => context.tipHeader()).toThrow('tip header is missing');
  });
});
