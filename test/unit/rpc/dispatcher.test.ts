import { describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../../src/logger.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import type { RpcSession } from '../../../src/rpc/session.js';
import { type LogLine, recordingLogger } from '../../support/recording-logger.js';
import { INTERNAL_SECRET, buildTestRegistry } from './test-methods.js';

function dispatcher(allowedMethods: string[] = [], maxBatchSize = 100, logger: Logger = silentLogger): RpcDispatcher {
  return new RpcDispatcher(buildTestRegistry(), { allowedMethods, maxBatchSize, logger });
}

const call = (method: string, params?: unknown, id: unknown = 1): string =>
  JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });

async function answer(d: RpcDispatcher, body: string | Buffer): Promise<unknown> {
  const text = await d.handle(body);
  expect(text).toBeTypeOf('string');
  return JSON.parse(text as string);
}

const err = (id: unknown, code: number, message: string): unknown => ({ jsonrpc: '2.0', id, error: { code, message } });

describe('RpcDispatcher: success answers', () => {
  it('answers a request with the exact bytes of a JSON-RPC 2.0 success', async () => {
    const d = dispatcher();
    expect(await d.handle(call('test_sum', { a: 1, b: 2 }))).toBe('{"jsonrpc":"2.0","id":1,"result":3}');
    expect(await d.handle(Buffer.from(call('test_echo', { x: [1, 'a'] }, 'k')))).toBe('{"jsonrpc":"2.0","id":"k","result":{"x":[1,"a"]}}');
  });

  it('passes {} when params are absent and answers {} for an undefined result', async () => {
    const d = dispatcher();
    expect(await d.handle(call('test_echo'))).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(await d.handle(call('test_nothing'))).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });

  it('splices a RawJson result verbatim and awaits async results', async () => {
    const d = dispatcher();
    expect(await d.handle(call('test_raw'))).toBe('{"jsonrpc":"2.0","id":1,"result":{"cached":true}}');
    expect(await d.handle(call('test_slow', { ms: 1 }))).toBe('{"jsonrpc":"2.0","id":1,"result":{"waited":1}}');
  });

  it.each([
    [1, '1'],
    [0, '0'],
    [-5, '-5'],
    [1.5, '1.5'],
    [1e21, '1e+21'],
    ['abc', '"abc"'],
    ['', '""'],
    ['with "quotes" and \u0001', JSON.stringify('with "quotes" and \u0001')],
    [null, 'null'],
  ])('echoes the id %j exactly', async (id, idJson) => {
    const d = dispatcher();
    expect(await d.handle(call('test_sum', { a: 2, b: 2 }, id))).toBe(`{"jsonrpc":"2.0","id":${idJson},"result":4}`);
    expect(await d.handle(call('nope_nope', undefined, id))).toBe(
      `{"jsonrpc":"2.0","id":${idJson},"error":{"code":-32601,"message":"Method \\"nope_nope\\" not found."}}`,
    );
  });
});

describe('RpcDispatcher: envelope errors', () => {
  it.each(['{', '', '   ', 'nul', '{"jsonrpc":"2.0",}', '\u0000', '[1,]'])('answers -32700 to malformed JSON %j', async (body) => {
    expect(await answer(dispatcher(), body)).toEqual(err(null, -32700, 'Parse error: the request is not valid JSON.'));
  });

  it.each([
    ['"jsonrpc" "1.0"', { jsonrpc: '1.0', id: 7, method: 'test_echo' }, 7, '"jsonrpc" must be "2.0"'],
    ['"jsonrpc" 2', { jsonrpc: 2, id: 7, method: 'test_echo' }, 7, '"jsonrpc" must be "2.0"'],
    ['no jsonrpc', { id: 7, method: 'test_echo' }, 7, '"jsonrpc" must be "2.0"'],
    ['no method', { jsonrpc: '2.0', id: 7 }, 7, '"method" must be a string'],
    ['method number', { jsonrpc: '2.0', id: 7, method: 1 }, 7, '"method" must be a string'],
    ['array params', { jsonrpc: '2.0', id: 7, method: 'test_echo', params: [1, 2] }, 7, '"params" must be an object'],
    ['null params', { jsonrpc: '2.0', id: 7, method: 'test_echo', params: null }, 7, '"params" must be an object'],
    ['string params', { jsonrpc: '2.0', id: 7, method: 'test_echo', params: 'x' }, 7, '"params" must be an object'],
    ['object id', { jsonrpc: '2.0', id: {}, method: 'test_echo' }, null, '"id" must be a number, a string or null'],
    ['boolean id', { jsonrpc: '2.0', id: true, method: 'test_echo' }, null, '"id" must be a number, a string or null'],
    ['extra key', { jsonrpc: '2.0', id: 7, method: 'test_echo', extra: 1 }, 7, 'unexpected member "extra"'],
  ])('answers -32600 for %s', async (_name, request, id, reason) => {
    const response = (await answer(dispatcher(), JSON.stringify(request))) as { id: unknown; error: { code: number; message: string } };
    expect(response.id).toBe(id);
    expect(response.error.code).toBe(-32600);
    expect(response.error.message).toContain(reason);
  });

  it('refuses an id that JSON turns into Infinity and a __proto__ member', async () => {
    const d = dispatcher();
    expect(await answer(d, '{"jsonrpc":"2.0","id":1e400,"method":"test_echo"}')).toEqual(
      err(null, -32600, 'Invalid request: "id" must be a number, a string or null.'),
    );
    expect(await answer(d, '{"jsonrpc":"2.0","id":3,"method":"test_echo","__proto__":{}}')).toEqual(
      err(3, -32600, 'Invalid request: unexpected member "__proto__".'),
    );
  });

  it.each(['1', '"x"', 'null', 'true', '{}'])('answers -32600 with id null to the non-request %s', async (body) => {
    const response = (await answer(dispatcher(), body)) as { id: unknown; error: { code: number } };
    expect(response.id).toBeNull();
    expect(response.error.code).toBe(-32600);
  });

  it('answers an invalid request even without an id (it cannot be known to be a notification)', async () => {
    expect(await answer(dispatcher(), '{"jsonrpc":"2.0","method":"test_echo","params":[]}')).toEqual(
      err(null, -32600, 'Invalid request: "params" must be an object of named parameters.'),
    );
  });
});

describe('RpcDispatcher: method errors', () => {
  it('answers -32601 for an unknown method, naming it without control characters and cut short', async () => {
    const d = dispatcher(['*']);
    expect(await answer(d, call('chain_nothing'))).toEqual(err(1, -32601, 'Method "chain_nothing" not found.'));
    expect(await answer(d, call('bad\u0000name\n'))).toEqual(err(1, -32601, 'Method "badname" not found.'));
    const long = 'a'.repeat(10_000);
    expect(await answer(d, call(long))).toEqual(err(1, -32601, `Method "${'a'.repeat(64)}…" not found.`));
    // Connection-local methods do not exist without a session.
    expect(await answer(d, call('subscribe', { topics: ['x'] }))).toEqual(err(1, -32601, 'Method "subscribe" not found.'));
  });

  it('answers -32602 with the validator message naming the field', async () => {
    const d = dispatcher();
    expect(await answer(d, call('test_sum', { a: 1, b: -1 }))).toEqual(err(1, -32602, 'Invalid params: params.b: must be >= 0'));
    expect(await answer(d, call('test_sum', { a: 1.5, b: 1 }))).toEqual(err(1, -32602, 'Invalid params: params.a: must be integer'));
    expect(await answer(d, call('test_sum', { a: 1 }))).toEqual(err(1, -32602, "Invalid params: params: must have required property 'b'"));
    expect(await answer(d, call('test_sum'))).toEqual(
      err(1, -32602, "Invalid params: params: must have required property 'a'; params: must have required property 'b'"),
    );
    const extra = (await answer(d, call('test_sum', { a: 1, b: 1, c: 1 }))) as { error: { code: number; message: string } };
    expect(extra.error.code).toBe(-32602);
    expect(extra.error.message).toMatch(/^Invalid params: params.*c/);
  });

  it('maps thrown errors through the one table: NotFoundError -32001, FormatError -32602, with their messages', async () => {
    const d = dispatcher();
    expect(await answer(d, call('test_missing', { height: 999 }))).toEqual(err(1, -32001, 'Block at height 999 does not exist.'));
    expect(await answer(d, call('test_badHex'))).toEqual(err(1, -32602, 'Invalid hex string "zz".'));
  });

  it.each(['test_crash', 'test_crashAsync', 'test_bigint'])(
    'answers -32603 "Internal error." for %s, logs the error, and never shows the message or a stack',
    async (method) => {
      const logged: LogLine[] = [];
      const logger = recordingLogger(logged);
      const d = dispatcher([], 100, logger);
      const text = (await d.handle(call(method, undefined, 'i'))) as string;
      expect(text).toBe('{"jsonrpc":"2.0","id":"i","error":{"code":-32603,"message":"Internal error."}}');
      expect(text).not.toContain('secret');
      expect(text).not.toContain(' at ');
      expect(logged).toHaveLength(1);
      expect(logged[0]?.level).toBe('error');
      expect(logged[0]?.fields.method).toBe(method);
      expect(logged[0]?.fields.err).toBeInstanceOf(Error);
      if (method !== 'test_bigint') expect((logged[0]?.fields.err as Error).message).toBe(INTERNAL_SECRET);
    },
  );

  it('logs nothing for ordinary client errors', async () => {
    const logged: LogLine[] = [];
    const logger = recordingLogger(logged);
    const d = dispatcher([], 100, logger);
    for (const body of ['{', call('x_y'), call('test_secret'), call('test_sum', {}), call('test_missing')]) await d.handle(body);
    expect(logged).toEqual([]);
  });
});

describe('RpcDispatcher: access control', () => {
  const DISABLED = 'Requested method or namespace is disabled in node config.';

  it('answers -32002 for a sensitive method that the config does not allow, and serves public ones', async () => {
    const d = dispatcher([]);
    expect(await answer(d, call('test_secret'))).toEqual(err(1, -32002, DISABLED));
    expect(await answer(d, call('test_echo', { a: 1 }))).toEqual({ jsonrpc: '2.0', id: 1, result: { a: 1 } });
  });

  it.each([['test'], ['test_secret'], ['*'], ['chain', 'test']])('allows test_secret with allowedMethods %j', async (...allowed) => {
    expect(await answer(dispatcher(allowed), call('test_secret'))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { secret: 'only for operators' },
    });
  });

  it('allows only what the list names', async () => {
    const d = dispatcher(['test_secret', 'other_public', 'tes', 'test_']);
    expect(await answer(d, call('other_secret'))).toEqual(err(1, -32002, DISABLED));
    const d2 = dispatcher(['other']);
    expect(await answer(d2, call('test_secret'))).toEqual(err(1, -32002, DISABLED));
    expect(await answer(d2, call('other_secret'))).toEqual({ jsonrpc: '2.0', id: 1, result: 'other secret' });
  });
});

describe('RpcDispatcher: batches and notifications', () => {
  it('answers -32600 (a single object, not an array) to an empty batch', async () => {
    expect(await dispatcher().handle('[]')).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: the batch is empty."}}',
    );
  });

  it('refuses a batch over the limit as a whole and accepts one at the limit', async () => {
    const d = dispatcher([], 3);
    const request = JSON.parse(call('test_sum', { a: 1, b: 1 })) as object;
    expect(await answer(d, JSON.stringify([request, request, request, request]))).toEqual(
      err(null, -32600, 'Invalid request: a batch may hold at most 3 requests, this one holds 4.'),
    );
    expect(await d.handle(JSON.stringify([request, request, request]))).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":2},{"jsonrpc":"2.0","id":1,"result":2},{"jsonrpc":"2.0","id":1,"result":2}]',
    );
  });

  it('answers a mixed batch in request order, skipping notifications and answering invalid members', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'test_slow', params: { ms: 20 } },
      { jsonrpc: '2.0', method: 'test_echo', params: { ignored: true } },
      { jsonrpc: '2.0', id: 2, method: 'test_sum', params: { a: 1, b: 2 } },
      1,
      [],
      { jsonrpc: '2.0', method: 'test_crash' },
      { jsonrpc: '2.0', id: null, method: 'test_missing', params: { height: 5 } },
      { jsonrpc: '1.0', method: 'test_echo' },
    ];
    expect(await answer(dispatcher(), JSON.stringify(batch))).toEqual([
      { jsonrpc: '2.0', id: 'a', result: { waited: 20 } },
      { jsonrpc: '2.0', id: 2, result: 3 },
      err(null, -32600, 'Invalid request: expected a JSON-RPC request object.'),
      err(null, -32600, 'Invalid request: expected a JSON-RPC request object.'),
      err(null, -32001, 'Block at height 5 does not exist.'),
      err(null, -32600, 'Invalid request: "jsonrpc" must be "2.0".'),
    ]);
  });

  it('sends nothing for a notification, even one that fails, nor for a batch of notifications only', async () => {
    const d = dispatcher();
    const calls: unknown[] = [];
    const registry = buildTestRegistry();
    registry.register({ namespace: 'spy', name: 'record', invoke: (params) => calls.push(params) });
    const spying = new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger });
    expect(await spying.handle('{"jsonrpc":"2.0","method":"spy_record","params":{"n":1}}')).toBeUndefined();
    expect(calls).toEqual([{ n: 1 }]);
    for (const method of ['test_crash', 'nope_nope', 'test_secret', 'test_missing']) {
      expect(await d.handle(`{"jsonrpc":"2.0","method":"${method}"}`)).toBeUndefined();
    }
    expect(await d.handle('{"jsonrpc":"2.0","method":"test_sum","params":{"a":"x"}}')).toBeUndefined();
    expect(
      await d.handle('[{"jsonrpc":"2.0","method":"test_echo"},{"jsonrpc":"2.0","method":"test_crash"},{"jsonrpc":"2.0","method":"x_y"}]'),
    ).toBeUndefined();
  });
});

describe('RpcDispatcher: session methods', () => {
  it('looks session methods up first and does not apply access control to them', async () => {
    const seen: unknown[] = [];
    const session: RpcSession = {
      sessionMethod: (name) =>
        name === 'subscribe' || name === 'test_secret'
          ? (params: unknown) => {
              seen.push(params);
              return { local: name };
            }
          : undefined,
    };
    const d = dispatcher([]);
    expect(await d.handle(call('subscribe', { topics: ['a'] }), session)).toBe('{"jsonrpc":"2.0","id":1,"result":{"local":"subscribe"}}');
    expect(await d.handle(call('test_secret'), session)).toBe('{"jsonrpc":"2.0","id":1,"result":{"local":"test_secret"}}');
    expect(await d.handle(call('test_sum', { a: 1, b: 1 }), session)).toBe('{"jsonrpc":"2.0","id":1,"result":2}');
    expect(seen).toEqual([{ topics: ['a'] }, undefined]);
  });
});

describe('RpcDispatcher.dispatch: synchronous when it can be', () => {
  it('returns the answer itself (no promise) when every method involved is synchronous', () => {
    const d = dispatcher();
    expect(d.dispatch(call('test_sum', { a: 1, b: 2 }))).toBe('{"jsonrpc":"2.0","id":1,"result":3}');
    expect(d.dispatch('{')).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the request is not valid JSON."}}',
    );
    expect(d.dispatch('{"jsonrpc":"2.0","method":"test_echo"}')).toBeUndefined();
    expect(d.dispatch(`[${call('test_echo')},${call('test_crash')}]`)).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error."}}]',
    );
  });

  it('returns a promise when a method is asynchronous, also inside a batch', async () => {
    const d = dispatcher();
    const single = d.dispatch(call('test_crashAsync'));
    expect(single).toBeInstanceOf(Promise);
    expect(await single).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error."}}');
    const batch = d.dispatch(`[${call('test_echo')},${call('test_slow', { ms: 1 }, 2)}]`);
    expect(batch).toBeInstanceOf(Promise);
    expect(await batch).toBe('[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"waited":1}}]');
  });

  it('awaits thenables that are not native promises', async () => {
    const registry = buildTestRegistry();
    registry.register({
      namespace: 'thenable',
      name: 'value',
      invoke: () => ({ then: (resolve: (value: unknown) => void) => resolve({ ok: true }) }),
    });
    const d = new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger });
    expect(await d.handle(call('thenable_value'))).toBe('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}');
  });
});
