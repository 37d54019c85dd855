/**
 * Fuzz of a live RpcServer over HTTP with the test methods (test/unit/rpc/test-methods.ts):
 * what a real node cannot show on purpose, methods that throw plain errors carrying internal
 * detail, synchronously and not, must answer the generic internal error and nothing of the
 * detail. Same generator and checks as the node-level fuzz (test/e2e/rpc-fuzz-node.test.ts):
 * every answer well-formed JSON-RPC 2.0 or a documented HTTP status, the server still answering
 * afterwards, and the heap flat.
 *
 * BASALT_FUZZ_REQUESTS sets the count (2,000 by default; at most 10,000 here, the node-level
 * fuzz takes the rest of a soak run), and BASALT_FUZZ_SEED the seed (printed so that a run can
 * be replayed).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRpcDocument } from '../../src/rpc/openrpc.js';
import type { RpcServer } from '../../src/rpc/server.js';
import { FuzzTally } from '../support/rpc-fuzz-answers.js';
import { methodsFromOpenRpc, RpcFuzzer, type FuzzMethod, type FuzzParam } from '../support/rpc-fuzz-input.js';
import { LOOPBACK, startTestServer } from '../unit/rpc/live-server.js';
import { buildTestRegistry, INTERNAL_SECRET } from '../unit/rpc/test-methods.js';

const REQUESTS = Math.max(1, Math.min(Number(process.env.BASALT_FUZZ_REQUESTS ?? 2_000) || 2_000, 10_000));
const SEED = Number(process.env.BASALT_FUZZ_SEED ?? 0x5eed) >>> 0;
const CONCURRENCY = 8;
const MAX_BODY = 32 * 1024;
const MAX_BATCH = 20;
const TIME_LIMIT_MS = Math.max(60_000, REQUESTS * 25);

/** Params the schema-less test methods read, so that the fuzz reaches their code paths. */
const READ_PARAMS: Readonly<Record<string, FuzzParam[]>> = {
  test_missing: [{ name: 'height', required: false, schema: { type: 'integer', minimum: 0 } }],
  test_big: [{ name: 'size', required: false, schema: { type: 'integer', minimum: 0, maximum: 4096 } }],
  test_echo: [{ name: 'a', required: false, schema: {} }],
};
/** test_slow sleeps: it would only slow the run down. */
const SKIPPED = new Set(['test_slow']);

function testMethods(): FuzzMethod[] {
  return methodsFromOpenRpc(openRpcDocument(buildTestRegistry(), 'fuzz'), new Set())
    .filter((method) => !SKIPPED.has(method.name))
    .map((method) => ({ ...method, params: READ_PARAMS[method.name] ?? method.params }));
}

function collectGarbage(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

let server: RpcServer;
let url: string;

beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: MAX_BODY, maxBatchSize: MAX_BATCH, allowedMethods: ['other'] });
  url = `http://${LOOPBACK}:${server.port}/rpc`;
});

afterAll(async () => {
  await server.stop();
});

describe(`RPC fuzz of an RpcServer over HTTP (${REQUESTS} requests, seed ${SEED})`, () => {
  it(
    'answers every request with well-formed JSON-RPC or a documented status, never shows what a method threw, and keeps the heap flat',
    async () => {
      const methods = testMethods();
      expect(methods.map((method) => method.name)).toEqual(expect.arrayContaining(['test_crash', 'test_crashAsync', 'test_sum']));
      const fuzzer = new RpcFuzzer(SEED, methods, { maxBodyBytes: MAX_BODY, maxBatchSize: MAX_BATCH }, [
        'chain_getBlockByHeight',
        'subscribe',
        '',
        '_',
        'a_b_c',
      ]);
      const tally = new FuzzTally([INTERNAL_SECRET]);
      const gc = collectGarbage();
      const heapNow = (): number => {
        gc?.();
        return process.memoryUsage().heapUsed;
      };
      const statuses = new Map<number, number>();
      const deadline = Date.now() + TIME_LIMIT_MS;
      let next = 0;
      let heapBefore = 0;
      const warmUp = Math.min(200, Math.floor(REQUESTS / 10));

      const worker = async (): Promise<void> => {
        while (next < REQUESTS && Date.now() < deadline && tally.failures.length < 10) {
          const index = (next += 1);
          if (index === warmUp) heapBefore = heapNow();
          const fuzzCase = fuzzer.next();
          FuzzTally.add(tally.requests, 'http');
          FuzzTally.add(tally.kinds, fuzzCase.kind);
          const status = await tally.postHttp(url, `#${index}`, fuzzCase);
          if (status !== undefined) statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      console.log(`RPC fuzz of an RpcServer: seed ${SEED} (replay with BASALT_FUZZ_SEED=${SEED})\n${tally.report()}`);

      expect(tally.failures, `seed ${SEED}`).toEqual([]);
      expect(next).toBeGreaterThanOrEqual(REQUESTS);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 2);
      // The throwing methods were reached, and answered the generic internal error.
      if (REQUESTS >= 1_000) expect(tally.answers.get('-32603') ?? 0).toBeGreaterThan(0);

      // Still serving, and correctly.
      const after = await fetch(url, {
        method: 'POST',
        body: '{"jsonrpc":"2.0","id":"after","method":"test_sum","params":{"a":20,"b":22}}',
      });
      expect(await after.text()).toBe('{"jsonrpc":"2.0","id":"after","result":42}');

      // The heap must not keep what requests allocated. The bound is loose on purpose: without
      // a forced collection heapUsed also counts garbage not yet collected.
      const growth = heapNow() - heapBefore;
      expect(growth).toBeLessThan((gc === undefined ? 96 : 32) * 1024 * 1024);
    },
    TIME_LIMIT_MS + 30_000,
  );
});
