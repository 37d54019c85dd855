/**
 * A registry of small, real RPC methods shared by the dispatcher unit tests and the RPC e2e
 * tests: each exercises one path of the dispatcher (params schema, sensitivity, error mapping,
 * async results, pre-serialized results).
 */
import { EventEmitter } from 'node:events';
import { FormatError, NotFoundError } from '../../../src/errors.js';
import { RawJson } from '../../../src/rpc/raw-json.js';
import { RpcRegistry, type RpcMethod } from '../../../src/rpc/registry.js';

export const INTERNAL_SECRET = 'internal detail /srv/secret-path';
export const EVENT_NAMES = ['app_ready', 'chain_newBlock', 'chain_deleteBlock', 'network_newBlock', 'token_transfer'];

/**
 * Emits 'start' when a test_slow call begins waiting and 'finish' when it returns (in this
 * process), so that a test waits for a request to be running, or done, instead of sleeping.
 */
export const slowCalls = new EventEmitter();

const sumRequest = {
  type: 'object',
  required: ['a', 'b'],
  properties: { a: { type: 'integer' }, b: { type: 'integer', minimum: 0 } },
  additionalProperties: false,
};

function method(namespace: string, name: string, invoke: RpcMethod['invoke'], extra: Partial<RpcMethod> = {}): RpcMethod {
  return { namespace, name, invoke, ...extra };
}

export function buildTestMethods(): RpcMethod[] {
  return [
    method('test', 'echo', (params) => params),
    method('test', 'sum', (params) => (params.a as number) + (params.b as number), { request: sumRequest }),
    method('test', 'secret', () => ({ secret: 'only for operators' }), { sensitive: true }),
    method('other', 'secret', () => 'other secret', { sensitive: true }),
    method('test', 'missing', (params) => {
      throw new NotFoundError(`Block at height ${String(params.height)} does not exist.`);
    }),
    method('test', 'badHex', () => {
      throw new FormatError('Invalid hex string "zz".');
    }),
    method('test', 'crash', () => {
      throw new Error(INTERNAL_SECRET);
    }),
    method('test', 'crashAsync', async () => {
      await Promise.resolve();
      throw new TypeError(INTERNAL_SECRET);
    }),
    method('test', 'bigint', () => ({ amount: 10n })),
    method('test', 'nothing', () => undefined),
    method('test', 'raw', () => new RawJson('{"cached":true}')),
    method('test', 'slow', async (params) => {
      const ms = Math.min(Math.max(Number(params.ms) || 0, 0), 2_000);
      slowCalls.emit('start');
      await new Promise((resolve) => setTimeout(resolve, ms));
      slowCalls.emit('finish');
      return { waited: ms };
    }),
    method('test', 'big', (params) => 'x'.repeat(Math.min(Math.max(Number(params.size) || 0, 0), 4_000_000))),
  ];
}

export function buildTestRegistry(): RpcRegistry {
  const registry = new RpcRegistry();
  for (const m of buildTestMethods()) registry.register(m);
  for (const name of EVENT_NAMES) registry.registerEvent(name);
  return registry;
}
