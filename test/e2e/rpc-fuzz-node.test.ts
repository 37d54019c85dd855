/**
 * Fuzz of a real node: a spawned `basalt start` on the devnet serving HTTP, WebSocket and IPC.
 * The methods and their params schemas come from the node itself (`rpc.discover`), so most
 * requests reach real methods with schema-shaped junk; the rest break the envelope, the JSON and
 * the bytes (test/support/rpc-fuzz-input.ts). Required at the end:
 *
 * - the node never exited and still answers a plain call on each transport;
 * - every answer is well-formed JSON-RPC 2.0 (or a documented HTTP status / WebSocket close);
 * - no error shows internal detail, and no request meets an internal error at all (a real node
 *   has a specific answer for every client mistake; the RpcServer-level fuzz proves the generic
 *   answer for methods that throw);
 * - the node's heap after a forced GC is within 10 % of what it was after the warm-up. The heap
 *   is read inside the node through the V8 inspector (the node runs with `--inspect` on a
 *   loopback address): `HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`.
 *
 * Over WebSocket and IPC a cheap sentinel request follows each case, and its answer marks the
 * case as handled (a notification gets no answer to wait for). IPC bodies stay within the limit:
 * ZeroMQ drops a peer that sends more, without an answer.
 *
 * Methods that would change the node when they succeed (its generator keys and status, its hash
 * onion) are called without one of their required params, so only their params checks run;
 * the generator keys, the hash onion seeds and the generation flags are compared before and after.
 *
 * BASALT_FUZZ_REQUESTS sets the count (5,000 by default; `npm run test:soak` sends 100,000),
 * BASALT_FUZZ_SEED the seed; both are printed with the figures so that a run can be replayed
 * (the same requests are generated; values read from the chain may differ with timing).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Dealer } from 'zeromq';
import { FuzzTally, leakProblem, requestText } from '../support/rpc-fuzz-answers.js';
import { methodsFromOpenRpc, RpcFuzzer, shownBody, type FuzzCase, type FuzzMethod, type KnownValues } from '../support/rpc-fuzz-input.js';
import { startBasaltNode, stopProcess, waitFor, type NodeProcess } from '../support/node-process.js';

const REQUESTS = Math.max(300, Math.min(Number(process.env.BASALT_FUZZ_REQUESTS ?? 5_000) || 5_000, 10_000_000));
const SEED = Number(process.env.BASALT_FUZZ_SEED ?? 0x5eed) >>> 0;
const HOST = '127.0.0.110';
const MAX_BODY = 128 * 1024;
const MAX_BATCH = 32;
/** Share of the requests per transport. */
const SHARES = { http: 0.4, ws: 0.3, ipc: 0.3 } as const;
const HTTP_CONCURRENCY = 4;
const WS_CONNECTIONS = 3;
const IPC_SOCKETS = 3;
const TIME_LIMIT_MS = Math.max(120_000, REQUESTS * 20);
/** Heap growth allowed between the warm-up and the end, both after a forced GC. */
const HEAP_TOLERANCE = 0.1;
/**
 * Methods whose success changes the node: generation keys and status, the hash onion. They are
 * neutralised (see RpcFuzzer.params).
 */
const SIDE_EFFECTS = new Set([
  'generator_setKeys',
  'generator_setStatus',
  'generator_updateStatus',
  'random_setHashOnion',
  'random_setHashOnionUsage',
]);
/** Names that are not methods of the registry: unknown, malformed, connection-local (WS). */
const EXTRA_NAMES = [
  'rpc.discover',
  'subscribe',
  'unsubscribe',
  'nobody_here',
  'chain_',
  '_getBlockByHeight',
  'chain_getBlockByHeight_',
  '',
  '_',
];
/** A cheap request sent after each WS or IPC case: its answer marks that the case was handled. */
const SENTINEL_METHOD = 'fuzz_sentinel';

interface Answer {
  result?: unknown;
  error?: { code: number; message: string };
}

/** A minimal Chrome DevTools protocol client for the node's inspector. */
class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
      if (message.id !== undefined) this.pending.get(message.id)?.(message);
    });
  }

  static async connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new Inspector(socket);
  }

  async send<T>(method: string): Promise<T> {
    const id = this.nextId++;
    const message = await new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method }));
    });
    this.pending.delete(id);
    if (message.error !== undefined) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
    return message.result as T;
  }

  /** The node's used heap after a full collection, in bytes. */
  async heapAfterGc(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.collectGarbage');
    return (await this.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
  }

  close(): void {
    this.socket.terminate();
  }
}

/** Strings and integers an answer holds that look like IDs, addresses, keys or heights. */
function harvest(value: unknown, into: KnownValues): void {
  if (typeof value === 'string') {
    if (/^lsk[a-z2-9]{38}$/.test(value) && !into.lisk32.includes(value)) into.lisk32.push(value);
    else if (/^(?:[0-9a-f]{2}){4,}$/.test(value) && into.hex.length < 500 && !into.hex.includes(value)) into.hex.push(value);
  } else if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && !into.integers.includes(value)) {
    if (into.integers.length < 200) into.integers.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value.slice(0, 50)) harvest(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) harvest(item, into);
  }
}

describe(`RPC fuzz of a running node over HTTP, WS and IPC (${REQUESTS} requests, seed ${SEED})`, () => {
  let dir: string;
  let dataPath: string;
  let node: NodeProcess;
  let port: number;
  let inspector: Inspector;
  let exited: string | undefined;

  const url = (): string => `http://${HOST}:${port}/rpc`;
  const call = async (method: string, params?: unknown): Promise<Answer> => {
    const response = await fetch(url(), { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    return (await response.json()) as Answer;
  };
  const result = async <T>(method: string, params?: unknown): Promise<T> => {
    const answer = await call(method, params);
    if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  };

  /**
   * What the neutralised methods would change: the generator keys, the hash onion seeds, and
   * which validators may generate (the status list also grows as validators generate their first
   * block, so only its `enabled` flags are compared, as a set).
   */
  const sideEffectState = async (): Promise<unknown> => {
    const status = await result<{ status: { address: string; enabled?: boolean }[] }>('generator_getStatus');
    return {
      keys: await result('generator_getAllKeys'),
      seeds: await result('random_getHashOnionSeeds'),
      enabled: [...new Set(status.status.map(({ enabled }) => String(enabled)))].sort(),
    };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-fuzz-'));
    dataPath = join(dir, 'data');
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        rpc: {
          modes: ['ipc', 'ws', 'http'],
          host: HOST,
          maxBodyBytes: MAX_BODY,
          maxBatchSize: MAX_BATCH,
          allowedMethods: ['generator', 'system', 'random'],
        },
        network: { host: HOST, seedPeers: [], maxInboundConnections: 0, maxOutboundConnections: 0 },
      }),
    );
    node = startBasaltNode(['--data-path', dataPath, '--config', config, '--api-host', HOST, '--log', 'info'], {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=${HOST}:0`.trim(),
    });
    node.child.once('exit', (code, signal) => (exited = `node exited (${signal ?? code})`));
    port = (await node.ports()).rpc;
    const inspectorUrl = /Debugger listening on (ws:\/\/\S+)/.exec(node.output())?.[1];
    if (inspectorUrl === undefined) throw new Error(`no inspector address in the node's output:\n${node.output()}`);
    inspector = await Inspector.connect(inspectorUrl);
    // Block 1 holds the bootstrap transactions: IDs, keys and addresses to aim at.
    await waitFor(
      'height 2',
      async () => ((await result<{ height: number }>('system_getNodeInfo')).height >= 2 ? true : undefined),
      60_000,
      {
        output: node.output,
      },
    );
  }, 120_000);

  afterAll(async () => {
    inspector?.close();
    if (node) await stopProcess(node.child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'answers every request well-formed without leaking internals, survives, and keeps its heap',
    async () => {
      // The methods and their params, from the node.
      const discovered = await result<{ methods: { name: string; params: { name: string; required?: boolean; schema?: object }[] }[] }>(
        'rpc.discover',
      );
      const registered = await result<{ name: string }[] | string[]>('app_getRegisteredEndpoints');
      const registeredNames = registered.map((entry) => (typeof entry === 'string' ? entry : entry.name)).sort();
      expect(discovered.methods.map((method) => method.name).sort()).toEqual(expect.arrayContaining(registeredNames));
      const methods: FuzzMethod[] = methodsFromOpenRpc(discovered, SIDE_EFFECTS);
      const sideEffectsBefore = await sideEffectState();
      expect(methods.filter((method) => method.neutralised).map((method) => method.name)).toEqual([...SIDE_EFFECTS]);
      expect(methods.length).toBeGreaterThan(80);

      // Values the chain holds.
      const known: KnownValues = { hex: [], lisk32: [], integers: [] };
      for (const [method, params] of [
        ['system_getNodeInfo', undefined],
        ['chain_getLastBlock', undefined],
        ['chain_getBlockByHeight', { height: 1 }],
        ['chain_getEvents', { height: 1 }],
        ['pos_getAllValidators', undefined],
        ['token_getSupportedTokens', undefined],
      ] as const) {
        harvest((await call(method, params)).result, known);
      }
      expect(known.lisk32.length).toBeGreaterThan(0);

      const tally = new FuzzTally();
      const fuzzers = {
        http: new RpcFuzzer(SEED, methods, { maxBodyBytes: MAX_BODY, maxBatchSize: MAX_BATCH }, EXTRA_NAMES, known),
        ws: new RpcFuzzer((SEED ^ 0x9e3779b9) >>> 0, methods, { maxBodyBytes: MAX_BODY, maxBatchSize: MAX_BATCH }, EXTRA_NAMES, known),
        ipc: new RpcFuzzer((SEED ^ 0x7f4a7c15) >>> 0, methods, { maxBodyBytes: MAX_BODY, maxBatchSize: MAX_BATCH }, EXTRA_NAMES, known),
      };
      const quota = {
        http: Math.round(REQUESTS * SHARES.http),
        ws: Math.round(REQUESTS * SHARES.ws),
        ipc: REQUESTS - Math.round(REQUESTS * SHARES.http) - Math.round(REQUESTS * SHARES.ws),
      };
      const sent = { http: 0, ws: 0, ipc: 0 };
      const deadline = Date.now() + TIME_LIMIT_MS;
      const going = (transport: keyof typeof sent): boolean =>
        sent[transport] < quota[transport] && Date.now() < deadline && tally.failures.length < 20 && exited === undefined;
      const take = (transport: keyof typeof sent, allowOversized: boolean): FuzzCase => {
        sent[transport] += 1;
        const fuzzCase = fuzzers[transport].next(allowOversized);
        FuzzTally.add(tally.requests, transport);
        FuzzTally.add(tally.kinds, fuzzCase.kind);
        return fuzzCase;
      };

      // Warm-up: the first quarter of the HTTP share (a tenth of the run) fills the node's caches
      // before the first heap reading.
      const warmUp = Math.max(50, Math.floor(quota.http / 4));
      let heapBefore = 0;

      const httpWorker = async (): Promise<void> => {
        while (going('http')) {
          const index = sent.http + 1;
          if (index === warmUp) heapBefore = await inspector.heapAfterGc();
          const odd = fuzzers.http.int(100);
          if (odd === 0) {
            // Other methods and paths: documented statuses.
            sent.http += 1;
            FuzzTally.add(tally.requests, 'http');
            FuzzTally.add(tally.kinds, 'http-method');
            const [method, path, expected] = fuzzers.http.pick([
              ['GET', '/rpc', 405],
              ['PUT', '/rpc', 405],
              ['OPTIONS', '/rpc', 204],
              ['POST', '/', 404],
              ['POST', '/rpc/', 404],
              ['POST', '/RPC', 404],
            ] as const);
            const response = await fetch(`http://${HOST}:${port}${path}`, { method }).catch((error: unknown) => error as Error);
            if (response instanceof Error) tally.fail(`http #${index}: ${method} ${path} failed: ${response.message}`);
            else {
              await response.arrayBuffer();
              FuzzTally.add(tally.outcomes, `http ${response.status}`);
              if (response.status !== expected)
                tally.fail(`http #${index}: ${method} ${path} got ${response.status}, expected ${expected}`);
            }
            continue;
          }
          const fuzzCase = take('http', true);
          await tally.postHttp(url(), `http #${index}`, fuzzCase);
        }
      };

      const wsConnection = async (): Promise<void> => {
        let sentinel = 0;
        while (going('ws')) {
          const socket = new WebSocket(`ws://${HOST}:${port}/rpc-ws`);
          const recent: string[] = [];
          let waiting: { id: string; resolve: () => void } | undefined;
          let closed: number | undefined;
          socket.on('message', (data) => {
            const text = String(data);
            if (waiting !== undefined && text.includes(`"${waiting.id}"`) && text.startsWith('{"jsonrpc":"2.0","id":"sentinel')) {
              waiting.resolve();
              return;
            }
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              // Not JSON: checkAnswer below says so.
            }
            if (
              typeof parsed === 'object' &&
              parsed !== null &&
              !('id' in parsed) &&
              typeof (parsed as { method?: unknown }).method === 'string'
            ) {
              // An event of a subscription the fuzz made.
              FuzzTally.add(tally.outcomes, 'ws event');
              const problem = leakProblem(text, '');
              if ((parsed as { jsonrpc?: unknown }).jsonrpc !== '2.0' || problem !== undefined)
                tally.fail(`ws: malformed event ${problem ?? ''}: ${text.slice(0, 200)}`);
              return;
            }
            const context = recent.join('\n');
            tally.checkAnswer('ws', text, context);
          });
          const closedNow = new Promise<void>((resolve) =>
            socket.on('close', (code) => {
              closed = code;
              resolve();
            }),
          );
          await new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('error', reject);
          });
          while (going('ws') && closed === undefined) {
            const fuzzCase = take('ws', true);
            const index = sent.ws;
            recent.push(requestText(fuzzCase.body));
            if (recent.length > 4) recent.shift();
            socket.send(fuzzCase.body, { binary: typeof fuzzCase.body !== 'string' || fuzzers.ws.chance(0.2) });
            if (fuzzCase.oversized) {
              // uWS closes a socket whose message is too large: 1009, or 1006 when the client is
              // still writing the message as the server drops the connection.
              await Promise.race([closedNow, new Promise((resolve) => setTimeout(resolve, 10_000))]);
              if (closed !== 1009 && closed !== 1006) tally.fail(`ws #${index}: oversized message: close ${String(closed)}`);
              FuzzTally.add(tally.outcomes, `ws close ${String(closed)}`);
              break;
            }
            const id = `sentinel-${(sentinel += 1)}`;
            const answered = new Promise<void>((resolve) => (waiting = { id, resolve }));
            socket.send(`{"jsonrpc":"2.0","id":"${id}","method":"${SENTINEL_METHOD}"}`);
            const timedOut = await Promise.race([
              answered.then(() => false),
              closedNow.then(() => false),
              new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 10_000)),
            ]);
            if (timedOut) tally.fail(`ws #${index}: no answer within 10 s after ${shownBody(fuzzCase.body)}`);
            if (closed !== undefined) {
              FuzzTally.add(tally.outcomes, `ws close ${closed}`);
              tally.fail(`ws #${index}: socket closed (${closed}) after ${shownBody(fuzzCase.body)}`);
            }
          }
          // Answers still in flight (async methods) arrive before the close.
          await new Promise((resolve) => setTimeout(resolve, 200));
          socket.close();
          await closedNow;
        }
      };

      const ipcSocket = async (): Promise<void> => {
        const dealer = new Dealer({ receiveTimeout: 10_000, linger: 0 });
        dealer.connect(`ipc://${join(dataPath, 'tmp', 'sockets', 'engine.external.rpc.ipc')}`);
        const recent: string[] = [];
        let sentinel = 0;
        let reqEnvelopes = 0;
        try {
          while (going('ipc')) {
            // IPC bodies stay within the limit: ZeroMQ drops a peer that sends more, without an answer.
            const fuzzCase = take('ipc', false);
            const index = sent.ipc;
            recent.push(requestText(fuzzCase.body));
            if (recent.length > 4) recent.shift();
            const frames = fuzzers.ipc.chance(0.03) ? [fuzzCase.body, fuzzers.ipc.chance(0.5) ? '' : fuzzCase.body] : [fuzzCase.body];
            // A message of several frames whose first is empty is a REQ client's: its answer
            // comes back behind the same empty delimiter frame.
            if (frames.length > 1 && requestText(fuzzCase.body) === '') reqEnvelopes += 1;
            await dealer.send(frames);
            const id = `sentinel-${(sentinel += 1)}`;
            await dealer.send(`{"jsonrpc":"2.0","id":"${id}","method":"${SENTINEL_METHOD}"}`);
            for (;;) {
              let frames: Buffer[];
              try {
                frames = await dealer.receive();
              } catch (error) {
                tally.fail(`ipc #${index}: no answer: ${String(error)} after ${shownBody(fuzzCase.body)}`);
                return;
              }
              let answer = frames;
              if (frames.length === 2 && frames[0]?.length === 0 && reqEnvelopes > 0) {
                reqEnvelopes -= 1;
                answer = frames.slice(1);
                FuzzTally.add(tally.outcomes, 'ipc answer behind a REQ envelope');
              }
              if (answer.length !== 1) tally.fail(`ipc #${index}: answer of ${frames.length} frames`);
              const text = String(answer[0]);
              if (text.startsWith(`{"jsonrpc":"2.0","id":"${id}"`)) break;
              const context = recent.join('\n');
              tally.checkAnswer(`ipc #${index}`, text, context);
            }
          }
        } finally {
          dealer.close();
        }
      };

      const started = Date.now();
      await Promise.all([
        ...Array.from({ length: HTTP_CONCURRENCY }, httpWorker),
        ...Array.from({ length: WS_CONNECTIONS }, wsConnection),
        ...Array.from({ length: IPC_SOCKETS }, ipcSocket),
      ]);
      const seconds = (Date.now() - started) / 1000;

      // Still running, and answering a plain call on each transport.
      expect(exited, node.output().slice(-4_000)).toBeUndefined();
      const info = await result<{ chainID: string; height: number }>('system_getNodeInfo');
      expect(info.chainID).toBe('04000000');
      const ws = new WebSocket(`ws://${HOST}:${port}/rpc-ws`);
      const wsAnswer = await new Promise<string>((resolve, reject) => {
        ws.once('open', () => ws.send('{"jsonrpc":"2.0","id":"after","method":"system_getNodeInfo"}'));
        ws.once('message', (data) => resolve(String(data)));
        ws.once('error', reject);
      });
      ws.close();
      expect((JSON.parse(wsAnswer) as { result: { chainID: string } }).result.chainID).toBe('04000000');
      const dealer = new Dealer({ receiveTimeout: 10_000, linger: 0 });
      dealer.connect(`ipc://${join(dataPath, 'tmp', 'sockets', 'engine.external.rpc.ipc')}`);
      await dealer.send('{"jsonrpc":"2.0","id":"after","method":"system_getNodeInfo"}');
      const [ipcAnswer] = await dealer.receive();
      dealer.close();
      expect((JSON.parse(String(ipcAnswer)) as { result: { chainID: string } }).result.chainID).toBe('04000000');

      // Let timers and sockets of the run close, then read the heap after a full collection.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const heapAfter = await inspector.heapAfterGc();
      const errorLogs = node
        .output()
        .split('\n')
        .filter((line) => /^\{"level":(?:50|60)/.test(line));
      const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
      console.log(
        [
          `RPC fuzz of a running node: seed ${SEED} (replay with BASALT_FUZZ_SEED=${SEED} BASALT_FUZZ_REQUESTS=${REQUESTS})`,
          tally.report(),
          `rate: ${(tally.total / seconds).toFixed(0)} requests/s over ${seconds.toFixed(1)} s`,
          `node heap after GC: ${mib(heapBefore)} MiB after the warm-up, ${mib(heapAfter)} MiB at the end (${(((heapAfter - heapBefore) / heapBefore) * 100).toFixed(1)} %)`,
          `error-level log records: ${errorLogs.length}; tip height ${info.height}`,
          ...errorLogs.slice(0, 5).map((line) => `  ${line.slice(0, 600)}`),
        ].join('\n'),
      );

      expect(tally.failures, `seed ${SEED}`).toEqual([]);
      // A real node answers every client mistake with a specific error: an internal error means a
      // method met input its params check let through (see the error-level records printed above).
      expect(tally.answers.get('-32603') ?? 0, `internal errors, seed ${SEED}`).toBe(0);
      // The neutralised methods changed nothing.
      expect(await sideEffectState()).toEqual(sideEffectsBefore);
      expect(tally.total).toBeGreaterThanOrEqual(REQUESTS);
      expect(heapBefore).toBeGreaterThan(0);
      expect(heapAfter).toBeLessThanOrEqual(heapBefore * (1 + HEAP_TOLERANCE));
    },
    TIME_LIMIT_MS + 60_000,
  );
});
