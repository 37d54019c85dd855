import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../../src/errors.js';
import { RPC_DEFAULTS, resolveRpcServerOptions, type RpcServerOptions } from '../../../src/rpc/server-options.js';

const base: RpcServerOptions = { modes: ['http', 'ws'], host: '127.0.0.1', port: 7887, allowedMethods: [] };

describe('resolveRpcServerOptions', () => {
  it('fills in the defaults', () => {
    expect(resolveRpcServerOptions({ ...base, modes: ['ws', 'http', 'ws'] })).toEqual({
      ...base,
      modes: ['ws', 'http'],
      accessControlAllowOrigin: '*',
      maxBodyBytes: 1_048_576,
      maxBatchSize: 100,
      wsMaxBufferedBytes: 4_194_304,
      wsIdleTimeoutSeconds: 60,
    });
    expect(RPC_DEFAULTS.maxBodyBytes).toBe(1024 * 1024);
  });

  it.each([
    ['an unknown mode', { modes: ['grpc'] as never }, /rpc.modes: unknown mode "grpc"/],
    ['an empty host', { host: '' }, /rpc.host/],
    ['a port above 65535', { port: 70000 }, /rpc.port: must be an integer from 0 to 65535/],
    ['a fractional port', { port: 1.5 }, /rpc.port/],
    ['a zero body limit', { maxBodyBytes: 0 }, /rpc.maxBodyBytes/],
    ['a zero batch size', { maxBatchSize: 0 }, /rpc.maxBatchSize/],
    ['a tiny WebSocket buffer', { wsMaxBufferedBytes: 10 }, /rpc.wsMaxBufferedBytes/],
    ['an idle timeout uWS refuses', { wsIdleTimeoutSeconds: 4 }, /rpc.wsIdleTimeoutSeconds/],
    ['a header-splitting origin', { accessControlAllowOrigin: 'a\r\nX-Evil: 1' }, /line breaks/],
    ['a non-string allowed method', { allowedMethods: [1] as never }, /rpc.allowedMethods/],
  ])('refuses %s', (_name, change, message) => {
    expect(() => resolveRpcServerOptions({ ...base, ...change })).toThrow(InvalidParamsError);
    expect(() => resolveRpcServerOptions({ ...base, ...change })).toThrow(message);
  });
});
