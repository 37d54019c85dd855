/**
 * Fuzz test of a live RpcServer over HTTP: random and mutated requests, every
 * answer must be well-formed JSON-RPC 2.0 or a documented HTTP status, the server must still
 * answer afterwards, and the heap must not grow with the number of requests.
 *
 * BASALT_FUZZ_REQUESTS sets the count (2,000 by default; a soak run uses 10,000), and
 * BASALT_FUZZ_SEED the seed (printed on failure so that a run can be replayed).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcServer } from '../../src/rpc/server.js';
import { answerProblem } from '../unit/rpc/json-rpc-shape.js';
import { LOOPBACK, startTestServer } from '../unit/rpc/live-server.js';
import { mulberry32 } from '../support/seeded-random.js';
import { INTERNAL_SECRET } from '../unit/rpc/test-methods.js';

const REQUESTS = Math.max(1, Math.min(Number(process.env.BASALT_FUZZ_REQUESTS ?? 2_000) || 2_000, 1_000_000));
const SEED = Number(process.env.BASALT_FUZZ_SEED ?? 0x5eed) >>> 0;
const CONCURRENCY = 8;
const MAX_BODY = 32 * 1024;
const MAX_BATCH = 20;
const TIME_LIMIT_MS = Math.max(60_000, REQUESTS * 25);

const random = mulberry32(SEED);
const int = (n: number): number => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;

const METHODS = [
  'test_echo',
  'test_sum',
  'test_secret',
  'other_secret',
  'test_missing',
  'test_badHex',
  'test_crash',
  'test_crashAsync',
  'test_bigint',
  'test_nothing',
  'test_raw',
  'test_big',
  'chain_getBlockByHeight',
  'subscribe',
  '',
  '_',
  'a_b_c',
];
const STRINGS = ['', 'a', '2.0', '1.0', 'null', '__proto__', 'constructor', '\u0000', '\ud800', 'é€😀', '"', '\\', '</script>'];

function randomString(): string {
  if (random() < 0.5) return pick(STRINGS);
  let text = '';
  const length = int(24);
  for (let i = 0; i < length; i += 1) text += String.fromCharCode(random() < 0.8 ? 32 + int(95) : int(0x10000));
  return text;
}

function randomValue(depth: number): unknown {
  const choice = int(depth > 3 ? 6 : 9);
  switch (choice) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308, Number.MIN_VALUE, int(1000)]);
    case 3:
    case 4:
      return randomString();
    case 5:
      return int(100);
    case 6:
      return Array.from({ length: int(5) }, () => randomValue(depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      const keys = int(5);
      for (let i = 0; i < keys; i += 1) object[pick(['a', 'b', 'height', 'size', 'ms', 'topics', randomString()])] = randomValue(depth + 1);
      return object;
    }
  }
}

function validRequest(): Record<string, unknown> {
  const request: Record<string, unknown> = { jsonrpc: '2.0', method: pick(METHODS) };
  if (random() < 0.8) request.id = pick([int(1e6), randomString(), null]);
  if (random() < 0.7) {
    request.params = pick([{ a: int(10) - 3, b: int(10) - 3 }, { height: int(100) }, { size: int(4096) }, { ms: int(3) }, randomValue(1)]);
  }
  return request;
}

/** Any member may be wrong, missing, or extra. */
function nearRequest(): Record<string, unknown> {
  const request = validRequest();
  const mutation = int(6);
  if (mutation === 0) request.jsonrpc = randomValue(2);
  if (mutation === 1) request.method = randomValue(2);
  if (mutation === 2) request.params = randomValue(1);
  if (mutation === 3) request.id = randomValue(1);
  if (mutation === 4) request[randomString() || 'x'] = randomValue(2);
  if (mutation === 5) delete request[pick(['jsonrpc', 'method', 'id', 'params'])];
  return request;
}

/** Flips, drops, inserts or truncates characters of a valid request's text. */
function mutatedText(): string {
  let text = JSON.stringify(random() < 0.7 ? validRequest() : [validRequest(), validRequest()]);
  const edits = 1 + int(4);
  for (let i = 0; i < edits; i += 1) {
    const at = int(text.length + 1);
    switch (int(4)) {
      case 0:
        text = text.slice(0, at) + pick(['{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', 'null', '1e999']) + text.slice(at);
        break;
      case 1:
        text = text.slice(0, at) + text.slice(at + 1 + int(3));
        break;
      case 2:
        text = text.slice(0, at) + String.fromCharCode(int(0x10000)) + text.slice(at + 1);
        break;
      default:
        text = text.slice(0, at);
    }
  }
  return text;
}

function randomBytes(): Uint8Array {
  const bytes = new Uint8Array(int(256));
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = int(256);
  return bytes;
}

interface FuzzCase {
  body: string | Uint8Array;
  /** Statuses this body may get: 200 with a JSON-RPC answer, 204 for notifications only, 413 when too large. */
  oversized: boolean;
}

function nextCase(): FuzzCase {
  const kind = int(100);
  let body: string | Uint8Array;
  if (kind < 20) body = JSON.stringify(validRequest());
  else if (kind < 40) body = JSON.stringify(nearRequest());
  else if (kind < 60) body = mutatedText();
  else if (kind < 70) body = JSON.stringify(randomValue(0));
  else if (kind < 78) body = randomBytes();
  else if (kind < 92) {
    body = JSON.stringify(
      Array.from({ length: int(MAX_BATCH + 4) }, () => (random() < 0.5 ? validRequest() : random() < 0.5 ? nearRequest() : randomValue(1))),
    );
  } else if (kind < 96) {
    const depth = 1 + int(5_000);
    body = pick(['[', '{"a":']).repeat(depth);
  } else if (kind < 98) body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test_echo', params: { s: 'x'.repeat(int(2 * MAX_BODY)) } });
  else body = '';
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return { body, oversized: size > MAX_BODY };
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

describe(`RPC fuzz over HTTP (${REQUESTS} requests, seed ${SEED})`, () => {
  it(
    'answers every request with well-formed JSON-RPC or a documented status, and keeps the heap flat',
    async () => {
      const gc = collectGarbage();
      const heapNow = (): number => {
        gc?.();
        return process.memoryUsage().heapUsed;
      };
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      const deadline = Date.now() + TIME_LIMIT_MS;
      let next = 0;
      let heapBefore = 0;
      const warmUp = Math.min(200, Math.floor(REQUESTS / 10));

      const worker = async (): Promise<void> => {
        while (next < REQUESTS && Date.now() < deadline && failures.length < 10) {
          const index = (next += 1);
          if (index === warmUp) heapBefore = heapNow();
          const fuzzCase = nextCase();
          let status: number;
          let text: string;
          try {
            const response = await fetch(url, { method: 'POST', body: fuzzCase.body });
            status = response.status;
            text = await response.text();
          } catch (error) {
            failures.push(`#${index}: request failed: ${String(error)}`);
            continue;
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const shown = typeof fuzzCase.body === 'string' ? fuzzCase.body.slice(0, 200) : `<${fuzzCase.body.length} bytes>`;
          if (status === 200) {
            const problem = answerProblem(text);
            if (problem !== undefined) failures.push(`#${index}: ${problem}: ${shown} → ${text.slice(0, 200)}`);
            if (text.includes(INTERNAL_SECRET)) failures.push(`#${index}: internal details leaked: ${shown}`);
          } else if (status === 204) {
            if (text !== '') failures.push(`#${index}: 204 with a body: ${shown}`);
          } else if (!(status === 413 && fuzzCase.oversized)) {
            failures.push(`#${index}: unexpected status ${status}: ${shown}`);
          }
          if (fuzzCase.oversized && status !== 413) failures.push(`#${index}: oversized body got ${status}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));

      expect(failures, `seed ${SEED}`).toEqual([]);
      expect(next).toBeGreaterThanOrEqual(REQUESTS);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 2);

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
