/**
 * RPC load on a live node: `basalt start` on the replayed dev chain, loaded over
 * HTTP POST /rpc (wrk, 64 connections) and WS /rpc-ws (our client: 4 sockets × 16 requests in
 * flight), method by method. Right after each node run the same load hits the uWS ceiling
 * (ceiling-server.ts) answering a pre-serialized body of the node's answer size: the node's
 * requests/s is reported as a ratio to it.
 *
 * Pinned runs put the server process (all its threads, workers included) on core 0 and the load
 * generator on core 1; unpinned runs follow, for information. txpool_postTransaction has 103 × 39
 * distinct valid transfers: first each is sent once (firstPass: every one verified and accepted),
 * then the usual runs cycle through them, re-posting transfers the pool holds, which Lisk answers
 * OK as well: those rows measure that resubmission path.
 *
 * chain_getBlockByHeight is loaded both at one hot height and at random heights over the whole
 * chain (the pattern an RPC provider sees), the latter against a ceiling holding the node's answer
 * for every height. The first seconds after the node starts (code not yet optimised, caches empty)
 * are measured apart, on a freshly started node per transport, against a freshly started ceiling.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measurement } from '../lib/figure.js';
import { devAccounts, devTransfersHex, DEV_TOKEN_ID } from '../lib/dev-transfers.js';
import { hasTaskset, hasWrk, pinProcess, runLoad, type LoadOptions, type LoadResult } from '../lib/load-run.js';
import { blockByHeightBodies, randomHeights, rpcBody as body, writeBodies } from '../lib/rpc-bodies.js';
import { replayDevChain, rpcText, startCeiling, startDevChainNode, type Server } from '../lib/rpc-node.js';
import type { Suite } from '../lib/suite.js';
import { cpuBetween, threadCpu, type ThreadCpu } from '../lib/thread-cpu.js';
import { produceTransferBlocks } from '../lib/transfer-chain.js';
import { DEV_CONFIG_FILE } from '../lib/dev-chain.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';

const CONNECTIONS = 64;
const WS_SOCKETS = 4;
const WS_IN_FLIGHT = 16;
/** The replayed dev chain's tip: the node holds heights 0 to DEV_TIP. */
const DEV_TIP = 420;
/** Heights in the random-height bodies file (cycled by every connection). */
const RANDOM_HEIGHTS = 4096;
/** The part of a random-height row's name after `rpc <transport> `. */
const RANDOM_TARGET = `chain_getBlockByHeight, random heights 0-${DEV_TIP}`;
/** The issue's bar for chain_getBlockByHeight: requests/s against the ceiling's, p99 against its p99. */
const TARGET = { minRatio: 0.8, maxP99Ratio: 1.3 } as const;

interface Target {
  readonly method: string;
  /** The part of the row's name after `rpc <transport> `. */
  readonly name: string;
  /** The part of the ceiling row's name after `uWS ceiling, `. */
  readonly ceiling: string;
  readonly bodies: string[];
}

const methodTarget = (method: string, bodies: string[]): Target => ({ method, name: method, ceiling: `${method} answer`, bodies });

async function targets(port: number): Promise<Target[]> {
  const [account] = devAccounts();
  const nonceOf = async (address: string) => {
    const answer = JSON.parse(await rpcText(port, 'auth_getAuthAccount', { address })) as { result: { nonce: string } };
    return BigInt(answer.result.nonce);
  };
  // 39 per account keeps 103 accounts under the pool's 4,096 and each under its 64.
  const transfers = await devTransfersHex(39, nonceOf);
  return [
    // Height 106: the dev chain's largest block with transactions (17 transfers and stakes).
    methodTarget('chain_getBlockByHeight', [body('chain_getBlockByHeight', { height: 106 })]),
    { method: 'chain_getBlockByHeight', name: RANDOM_TARGET, ceiling: `${RANDOM_TARGET} answers`, bodies: randomBodies() },
    methodTarget('chain_getLastBlock', [body('chain_getLastBlock')]),
    methodTarget('token_getBalance', [body('token_getBalance', { address: account!.address, tokenID: DEV_TOKEN_ID.toString('hex') })]),
    methodTarget(
      'txpool_postTransaction',
      transfers.map((transaction) => body('txpool_postTransaction', { transaction })),
    ),
  ];
}

function randomBodies(): string[] {
  return blockByHeightBodies(randomHeights(RANDOM_HEIGHTS, DEV_TIP));
}

/** The node's chain_getBlockByHeight answer for every height, in height order (what the ceiling sends back). */
async function answersByHeight(port: number, tip = DEV_TIP): Promise<string[]> {
  const answers: string[] = [];
  for (let height = 0; height <= tip; height++) {
    const answer = await rpcText(port, 'chain_getBlockByHeight', { height });
    if (!answer.includes('"result"')) throw new Error(`chain_getBlockByHeight ${height} answered ${answer.slice(0, 200)}`);
    answers.push(answer);
  }
  return answers;
}

/**
 * A load's result with the main-thread CPU time the server spent per request (µs), when it was
 * read: on a busy machine the one figure a neighbour barely moves (it takes the core, not this).
 */
type Timed = LoadResult & { readonly mainUsPerRequest?: number };

/** `r` with the server's main-thread CPU per request between two readings. */
function timed(r: LoadResult, cpu: ThreadCpu | undefined): Timed {
  return cpu === undefined || r.requests === 0 ? r : { ...r, mainUsPerRequest: (cpu.mainMs * 1000) / r.requests };
}

/** The round with more requests/s; its latencies come with it. */
function best<T extends LoadResult>(a: T, b: T): T {
  return a.requestsPerSecond >= b.requestsPerSecond ? a : b;
}

function describe(r: LoadResult): string {
  const errors = r.socketErrors + r.non2xx > 0 ? `, ${r.socketErrors} socket errors, ${r.non2xx} non-2xx` : '';
  return `${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${r.rpcErrors === null ? 'answer checked before the run' : `${r.rpcErrors} error answers`}${errors} (${r.client})`;
}

/**
 * txpool_postTransaction with every transfer new: each of the bodies sent once over WS (wrk cannot
 * stop after N requests), before any other run. Each one is decoded, verified (signature, nonce,
 * fee, balance) and added; the pool must hold all of them afterwards, or the suite fails.
 */
async function firstPass(
  node: Server,
  bodiesFile: string,
  count: number,
  pinned: boolean,
  progress: (line: string) => void,
): Promise<Measurement[]> {
  if (pinned) pinProcess(node.pid, '0');
  // No ceiling row: at uWS speed these few thousand requests last a fraction of a second, which
  // would measure the client's cold start, not the server.
  const ours = await runLoad({
    transport: 'ws',
    port: node.port,
    bodiesFile,
    seconds: 120,
    connections: WS_SOCKETS,
    inFlight: WS_IN_FLIGHT,
    cpus: pinned ? '1' : undefined,
    countErrors: true,
    once: true,
  });
  const info = JSON.parse(await rpcText(node.port, 'system_getNodeInfo')) as { result: { unconfirmedTransactions: number } };
  if (ours.rpcErrors !== 0 || info.result.unconfirmedTransactions !== count) {
    throw new Error(`First pass: ${ours.rpcErrors} refused, ${info.result.unconfirmedTransactions} of ${count} in the pool.`);
  }
  const suffix = pinned ? '' : ' (unpinned)';
  const name = `rpc ws txpool_postTransaction, ${count} new transfers${suffix}`;
  progress(`${name}: ${describe(ours)}; all ${count} in the pool`);
  return [
    { name, value: ours.requestsPerSecond, unit: 'req/s' },
    { name: `${name} p50`, value: ours.p50Ms, unit: 'ms' },
    { name: `${name} p99`, value: ours.p99Ms, unit: 'ms' },
  ];
}

/** A run with more than 1 % failed requests (socket errors, non-2xx) is no figure. */
function checked(r: LoadResult, what: string): LoadResult {
  if (r.socketErrors + r.non2xx > r.requests / 100) throw new Error(`${what}: ${describe(r)}`);
  return r;
}

/**
 * The rows of one load on the node and on the ceiling: requests/s with the ceiling's as baseline
 * and, pinned, p50 and p99 of each, the node's p99 with the ceiling's p99 as baseline (its ratio
 * is ceiling p99 / node p99: at least 1 / 1.3 meets the p99 target). The progress lines say how
 * the pair compares with the target, so a reader needs no table to check it.
 */
function pairRows(
  name: string,
  topName: string,
  ours: Timed,
  top: Timed,
  pinned: boolean,
  progress: (line: string) => void,
  checkTarget = false,
): Measurement[] {
  progress(`${name}: ${describe(ours)}`);
  progress(`${topName}: ${describe(top)}`);
  const rows: Measurement[] = [{ name, value: ours.requestsPerSecond, unit: 'req/s', baseline: topName }];
  if (pinned && checkTarget && ours.mainUsPerRequest !== undefined && top.mainUsPerRequest !== undefined) {
    // The ratio of these rows (ceiling / node) is what the requests/s ratio would be if the
    // server's main thread had the core to itself: the same comparison, free of the neighbours.
    const cpuName = `${name}, main-thread CPU per request`;
    const topCpuName = `${topName}, main-thread CPU per request`;
    progress(
      `${name}: main-thread CPU per request ${ours.mainUsPerRequest.toFixed(1)} µs, ceiling ${top.mainUsPerRequest.toFixed(1)} µs (${(top.mainUsPerRequest / ours.mainUsPerRequest).toFixed(2)}x)`,
    );
    rows.push({ name: cpuName, value: ours.mainUsPerRequest, unit: 'µs/op', baseline: topCpuName });
    rows.push({ name: topCpuName, value: top.mainUsPerRequest, unit: 'µs/op' });
  }
  if (pinned && checkTarget) {
    const ratio = ours.requestsPerSecond / top.requestsPerSecond;
    const p99Ratio = ours.p99Ms / top.p99Ms;
    const met = ratio >= TARGET.minRatio && p99Ratio <= TARGET.maxP99Ratio ? 'met' : 'not met';
    progress(
      `${name}: ${ratio.toFixed(2)}x the ceiling's req/s, p99 ${p99Ratio.toFixed(2)}x its p99 (target: >= ${TARGET.minRatio}x, <= ${TARGET.maxP99Ratio}x: ${met})`,
    );
  }
  if (pinned) {
    rows.push({ name: `${name} p50`, value: ours.p50Ms, unit: 'ms' });
    rows.push({ name: `${name} p99`, value: ours.p99Ms, unit: 'ms', baseline: `${topName} p99` });
  }
  rows.push({ name: topName, value: top.requestsPerSecond, unit: 'req/s' });
  if (pinned) {
    // The ceiling's own latency under the same load: at saturation, closed-loop latency is
    // mostly queueing (64 connections / requests per second), so the node's tail is read
    // against this one.
    rows.push({ name: `${topName} p50`, value: top.p50Ms, unit: 'ms' });
    rows.push({ name: `${topName} p99`, value: top.p99Ms, unit: 'ms' });
  }
  return rows;
}

type Load = Omit<LoadOptions, 'port'>;

/** The load options of `transport` with the suite's concurrency. */
function loadOf(transport: 'http' | 'ws', bodiesFile: string, seconds: number, pinned: boolean, countErrors: boolean): Load {
  return {
    transport,
    bodiesFile,
    seconds,
    connections: transport === 'http' ? CONNECTIONS : WS_SOCKETS,
    inFlight: WS_IN_FLIGHT,
    cpus: pinned ? '1' : undefined,
    countErrors,
  };
}

interface PairSettings {
  readonly pinned: boolean;
  readonly seconds: number;
  /** Seconds of load on each server before the measured rounds (pinned runs only; 0: none). */
  readonly warmupSeconds: number;
  readonly rounds: number;
  readonly httpClient: string;
  /** Row name's tail (` (unpinned)`). */
  readonly suffix: string;
}

/**
 * One target over one transport on the node and the ceiling: a short load on each, then
 * interleaved rounds (node, ceiling, …), each side keeping its best; the rows of pairRows.
 */
async function measuredPair(
  node: Server,
  ceiling: Server,
  target: Target,
  bodiesFile: string,
  transport: 'http' | 'ws',
  settings: PairSettings,
  progress: (line: string) => void,
): Promise<Measurement[]> {
  const { pinned, seconds } = settings;
  // A read's answer is checked once before the runs; scanning every body in wrk's Lua would make
  // wrk, not the server, the limit. Posted transactions can be refused: count.
  const options = loadOf(transport, bodiesFile, seconds, pinned, transport === 'ws' || target.method === 'txpool_postTransaction');
  const load = (server: Server, secs: number) => runLoad({ ...options, port: server.port, seconds: secs });
  if (settings.warmupSeconds > 0 && pinned) {
    await load(node, settings.warmupSeconds);
    await load(ceiling, settings.warmupSeconds);
  }
  const measured = async (server: Server): Promise<Timed> => {
    const before = threadCpu(server.pid);
    const r = checked(await load(server, seconds), `${target.name} over ${transport}`);
    return timed(r, cpuBetween(before, threadCpu(server.pid)));
  };
  let ours = await measured(node);
  let top = await measured(ceiling);
  for (let round = 1; round < settings.rounds; round++) {
    ours = best(ours, await measured(node));
    top = best(top, await measured(ceiling));
  }
  const label = `rpc ${transport}${transport === 'http' ? settings.httpClient : ''}`;
  return pairRows(
    `${label} ${target.name}${settings.suffix}`,
    `${label} uWS ceiling, ${target.ceiling}${settings.suffix}`,
    ours,
    top,
    pinned,
    progress,
    target.method === 'chain_getBlockByHeight',
  );
}

/**
 * Random heights over the dev chain plus `count` full transfer blocks forged on it by its own
 * validators (lib/transfer-chain.ts: 94-95 transfers, about 40 KB of JSON each, above the
 * finalized height), on a node of their own against a ceiling holding its answers.
 */
async function transferChainRows(
  work: string,
  count: number,
  settings: PairSettings,
  servers: Server[],
  progress: (line: string) => void,
): Promise<Measurement[]> {
  progress(`rpc-load: forging ${count} full transfer blocks on the dev chain`);
  const dataPath = join(work, 'transfers');
  await produceTransferBlocks(dataPath, loadChainConfig(DEV_CONFIG_FILE), count);
  const tip = DEV_TIP + count;
  const node = await startDevChainNode(dataPath, tip);
  servers.push(node);
  const answersFile = join(work, 'transfer-answers.json');
  writeAnswers(answersFile, await answersByHeight(node.port, tip), {});
  const ceiling = await startCeiling(answersFile);
  servers.push(ceiling);
  for (const s of [node, ceiling]) pinProcess(s.pid, settings.pinned ? '0' : '0-1');
  const name = `chain_getBlockByHeight, random heights 0-${tip} (${count} full transfer blocks above ${DEV_TIP})`;
  const target: Target = {
    method: 'chain_getBlockByHeight',
    name,
    ceiling: `${name} answers`,
    bodies: blockByHeightBodies(randomHeights(RANDOM_HEIGHTS, tip)),
  };
  const file = writeBodies(join(work, 'transfer-random-heights.txt'), target.bodies);
  const rows: Measurement[] = [];
  for (const transport of ['http', 'ws'] as const)
    rows.push(...(await measuredPair(node, ceiling, target, file, transport, settings, progress)));
  for (const s of [node, ceiling]) await s.stop();
  return rows;
}

/**
 * Random heights in the first `seconds` after a start, for each transport: a node started for
 * the load (pinned once it answers, before any block was asked for), then a ceiling started for
 * it. The node's answers for every height are read after the first of these runs, for the
 * ceilings. Returns the rows, the last node (kept running: the suite goes on with it) and the
 * ceiling's answers file.
 */
async function coldStartRows(
  work: string,
  dataPath: string,
  randomFile: string,
  seconds: number,
  pinned: boolean,
  httpClient: string,
  servers: Server[],
  progress: (line: string) => void,
): Promise<{ rows: Measurement[]; node: Server; byHeight: string[] }> {
  const answersFile = join(work, 'cold-answers.json');
  const rows: Measurement[] = [];
  let node: Server | undefined;
  let byHeight: string[] | undefined;
  // Every server goes on `servers` at once, so the suite stops it whatever happens next.
  const started = async (server: Promise<Server>) => {
    const s = await server;
    servers.push(s);
    if (pinned) pinProcess(s.pid, '0');
    return s;
  };
  for (const transport of ['http', 'ws'] as const) {
    const suffix = `, first ${seconds} s after start`;
    const label = `rpc ${transport}${transport === 'http' ? httpClient : ''}`;
    const load = loadOf(transport, randomFile, seconds, pinned, transport === 'ws');
    if (node !== undefined) await node.stop();
    node = await started(startDevChainNode(dataPath));
    const nodeBefore = threadCpu(node.pid);
    const ours = checked(await runLoad({ ...load, port: node.port }), `${RANDOM_TARGET} over ${transport}${suffix}`);
    const nodeCpu = cpuBetween(nodeBefore, threadCpu(node.pid));
    if (byHeight === undefined) {
      byHeight = await answersByHeight(node.port);
      writeAnswers(answersFile, byHeight, {});
    }
    const ceiling = await started(startCeiling(answersFile));
    const ceilingBefore = threadCpu(ceiling.pid);
    let top: LoadResult;
    let ceilingCpu: ThreadCpu | undefined;
    try {
      top = checked(await runLoad({ ...load, port: ceiling.port }), `ceiling, ${RANDOM_TARGET} over ${transport}${suffix}`);
      ceilingCpu = cpuBetween(ceilingBefore, threadCpu(ceiling.pid));
    } finally {
      await ceiling.stop();
    }
    // Where the node's time went: a start-up still running in other threads (worker threads
    // loading their modules, V8 compiling) takes the pinned core from the main thread.
    if (nodeCpu !== undefined && ceilingCpu !== undefined)
      progress(
        `rpc-load: ${transport}${suffix}: CPU ms main thread / other threads: node ${nodeCpu.mainMs} / ${nodeCpu.otherMs}, ceiling ${ceilingCpu.mainMs} / ${ceilingCpu.otherMs}`,
      );
    // The window starts at the node's first answer (asked every few ms from its spawn), not later.
    progress(`rpc-load: ${transport}${suffix}: the node answered ${Math.round(node.readyAfterMs)} ms after its spawn; the load began then`);
    rows.push(
      ...pairRows(
        `${label} ${RANDOM_TARGET}${suffix}`,
        `${label} uWS ceiling, ${RANDOM_TARGET} answers${suffix}`,
        timed(ours, nodeCpu),
        timed(top, ceilingCpu),
        pinned,
        progress,
        true,
      ),
    );
  }
  return { rows, node: node!, byHeight: byHeight! };
}

/** The ceiling's answers: chain_getBlockByHeight by height, and one answer per other method. */
function writeAnswers(file: string, byHeight: string[], others: Record<string, string>): void {
  writeFileSync(file, JSON.stringify({ chain_getBlockByHeight: byHeight, ...others }));
}

export const rpcLoadSuite: Suite = {
  name: 'rpc-load',
  summary: 'live node on the dev chain under wrk (HTTP) and a WS client, next to a plain uWS ceiling',
  async run(progress, options) {
    const seconds = options.quick ? 2 : 4;
    const warmupSeconds = options.quick ? 0 : 1;
    // The issue's "first 8 s after start"; a shorter window with --quick.
    const coldSeconds = options.quick ? 2 : 8;
    // Pinned figures are the ones compared: two interleaved rounds (node, ceiling, node, ceiling),
    // each side keeping its best, so a neighbour's burst slows one round, not one contender.
    const pinnedRounds = options.quick ? 1 : 2;
    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-rpc-'));
    const servers: Server[] = [];
    try {
      progress('rpc-load: replaying the dev chain into a temporary data directory');
      replayDevChain(join(work, 'node'));
      if (!hasWrk())
        progress('rpc-load: wrk not found (apt-get install wrk): HTTP runs use the basalt http client, whose figures are lower');
      const pinnings = hasTaskset() ? (options.quick ? [true] : [true, false]) : [false];
      if (!hasTaskset()) progress('rpc-load: taskset not found: unpinned runs only');
      const httpClient = hasWrk() ? '' : ' [basalt http client]';
      const results: Measurement[] = [];

      const randomFile = writeBodies(join(work, 'random-heights.txt'), randomBodies());
      const cold = await coldStartRows(work, join(work, 'node'), randomFile, coldSeconds, pinnings[0]!, httpClient, servers, progress);
      const node = cold.node;
      results.push(...cold.rows);
      const list = await targets(node.port);
      // The ceiling's answers: the node's own answers, byte for byte (every height's block, read
      // after the first cold run; postTransaction's comes from a transfer outside the loaded set,
      // so the set stays new).
      const others: Record<string, string> = {};
      for (const t of list.filter((t) => t.method === 'chain_getLastBlock' || t.method === 'token_getBalance')) {
        const answer = await rpcText(node.port, t.method, JSON.parse(t.bodies[0]!).params);
        if (!answer.includes('"result"')) throw new Error(`${t.method} answered ${answer.slice(0, 200)}`);
        others[t.method] = answer;
      }
      others.txpool_postTransaction = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { transactionId: '0'.repeat(64) } });
      const answersFile = join(work, 'answers.json');
      writeAnswers(answersFile, cold.byHeight, others);
      const files = list.map((t, i) => writeBodies(join(work, `bodies-${i}.txt`), t.bodies));
      const ceiling = await startCeiling(answersFile);
      servers.push(ceiling);

      const postTarget = list.findIndex((t) => t.method === 'txpool_postTransaction');
      results.push(...(await firstPass(node, files[postTarget]!, list[postTarget]!.bodies.length, pinnings[0]!, progress)));
      const settings = (pinned: boolean): PairSettings => ({
        pinned,
        seconds,
        warmupSeconds,
        rounds: pinned ? pinnedRounds : 1,
        httpClient,
        suffix: pinned ? '' : ' (unpinned)',
      });
      for (const pinned of pinnings) {
        for (const s of [node, ceiling]) pinProcess(s.pid, pinned ? '0' : '0-1');
        for (const [i, target] of list.entries()) {
          for (const transport of ['http', 'ws'] as const) {
            results.push(...(await measuredPair(node, ceiling, target, files[i]!, transport, settings(pinned), progress)));
          }
        }
      }
      const info = JSON.parse(await rpcText(node.port, 'system_getNodeInfo')) as { result: { unconfirmedTransactions: number } };
      progress(
        `rpc-load: txpool_postTransaction: after the first pass (all ${list[postTarget]!.bodies.length} new), every request re-posted a transfer the pool holds; the pool has ${info.result.unconfirmedTransactions}`,
      );
      for (const s of [node, ceiling]) await s.stop();
      const transferBlocks = options.quick ? 6 : 30;
      results.push(...(await transferChainRows(work, transferBlocks, settings(pinnings[0]!), servers, progress)));
      return results;
    } finally {
      for (const s of servers) await s.stop();
      rmSync(work, { recursive: true, force: true });
    }
  },
};
