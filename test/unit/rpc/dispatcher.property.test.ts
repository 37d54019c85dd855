import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { answerProblem } from './json-rpc-shape.js';
import { buildTestRegistry } from './test-methods.js';

const d = new RpcDispatcher(buildTestRegistry(), { allowedMethods: [], maxBatchSize: 20, logger: silentLogger });
const methods = ['test_echo', 'test_sum', 'test_secret', 'test_missing', 'test_crash', 'test_bigint', 'test_raw', 'nope', 'subscribe'];

/** Requests that are nearly valid: every member drawn from valid and invalid values. */
const nearRequest = fc.record(
  {
    jsonrpc: fc.constantFrom<unknown>('2.0', '1.0', 2, null),
    method: fc.oneof(fc.constantFrom<unknown>(...methods), fc.string(), fc.integer()),
    params: fc.oneof(fc.dictionary(fc.constantFrom('a', 'b', 'height', 'x'), fc.jsonValue()), fc.jsonValue()),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.boolean(), fc.object()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

async function check(body: string): Promise<void> {
  const text = await d.handle(body);
  if (text !== undefined) expect(answerProblem(text)).toBeUndefined();
}

describe('RpcDispatcher properties', () => {
  it('answers any JSON text with well-formed JSON-RPC (or nothing) and never rejects', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => check(JSON.stringify(value))),
      { numRuns: 300 },
    );
  });

  it('answers near-valid requests and batches of them with well-formed JSON-RPC', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nearRequest, fc.array(nearRequest, { maxLength: 25 })), async (value) => check(JSON.stringify(value))),
      { numRuns: 300 },
    );
  });

  it('answers any string with well-formed JSON-RPC (or nothing)', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), check), { numRuns: 200 });
  });

  it('answers a request with an id exactly once, echoing the id', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), fc.constantFrom(...methods), async (id, method) => {
        const text = (await d.handle(JSON.stringify({ jsonrpc: '2.0', id, method, params: { a: 1, b: 2 } }))) as string;
        expect(answerProblem(text)).toBeUndefined();
        expect((JSON.parse(text) as { id: unknown }).id).toEqual(id);
      }),
      { numRuns: 300 },
    );
  });
});
