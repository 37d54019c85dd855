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
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Measurement } from '../lib/figure.js';
import { devAccounts, devTransfersHex, DEV_TOKEN_ID } from '../lib/dev-transfers.js';
import { hasTaskset, hasWrk, pinProcess, runLoad, type LoadResult } from '../lib/load-run.js';
import { replayDevChain, rpcText, startCeiling, startDevChainNode, type Server } from '../lib/rpc-node.js';
import type { Suite } from '../lib/suite.js';

const CONNECTIONS = 64;
const WS_SOCKETS = 4;
const WS_IN_FLIGHT = 16;

interface Target {
  readonly method: string;
  readonly bodies: string[];
}

const body = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

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
    { method: 'chain_getBlockByHeight', bodies: [body('chain_getBlockByHeight', { height: 106 })] },
    { method: 'chain_getLastBlock', bodies: [body('chain_getLastBlock')] },
    {
      method: 'token_getBalance',
      bodies: [body('token_getBalance', { address: account!.address, tokenID: DEV_TOKEN_ID.toString('hex') })],
    },
    { method: 'txpool_postTransaction', bodies: transfers.map((transaction) => body('txpool_postTransaction', { transaction })) },
  ];
}

/** The round with more requests/s; its latencies come with it. */
function best(a: LoadResult, b: LoadResult): LoadResult {
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

export const rpcLoadSuite: Suite = {
  name: 'rpc-load',
  summary: 'live node on the dev chain under wrk (HTTP) and a WS client, next to a plain uWS ceiling',
  async run(progress, options) {
    const seconds = options.quick ? 2 : 4;
    const warmupSeconds = options.quick ? 0 : 1;
    // Pinned figures are the ones compared: two interleaved rounds (node, ceiling, node, ceiling),
    // each side keeping its best, so a neighbour's burst slows one round, not one contender.
    const pinnedRounds = options.quick ? 1 : 2;
    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-rpc-'));
    const servers: Server[] = [];
    try {
      progress('rpc-load: replaying the dev chain into a temporary data directory');
      replayDevChain(join(work, 'node'));
      const node = await startDevChainNode(join(work, 'node'));
      servers.push(node);
      const list = await targets(node.port);
      // The ceiling's answers: the node's own answers, byte for byte (postTransaction's comes from
      // a transfer outside the loaded set, so the set stays new).
      const answers: Record<string, string> = {};
      for (const t of list.slice(0, 3)) {
        const answer = await rpcText(node.port, t.method, JSON.parse(t.bodies[0]!).params);
        if (!answer.includes('"result"')) throw new Error(`${t.method} answered ${answer.slice(0, 200)}`);
        answers[t.method] = answer;
      }
      answers.txpool_postTransaction = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { transactionId: '0'.repeat(64) } });
      const files = list.map((t, i) => {
        const file = join(work, `bodies-${i}.txt`);
        writeFileSync(file, `${t.bodies.join('\n')}\n`);
        return file;
      });
      writeFileSync(join(work, 'answers.json'), JSON.stringify(answers));
      const ceiling = await startCeiling(join(work, 'answers.json'));
      servers.push(ceiling);

      if (!hasWrk())
        progress('rpc-load: wrk not found (apt-get install wrk): HTTP runs use the basalt http client, whose figures are lower');
      const pinnings = hasTaskset() ? (options.quick ? [true] : [true, false]) : [false];
      if (!hasTaskset()) progress('rpc-load: taskset not found: unpinned runs only');
      const results: Measurement[] = [];
      results.push(...(await firstPass(node, files[3]!, list[3]!.bodies.length, pinnings[0]!, progress)));
      const httpClient = hasWrk() ? '' : ' [basalt http client]';
      for (const pinned of pinnings) {
        for (const s of servers) pinProcess(s.pid, pinned ? '0' : '0-1');
        const suffix = pinned ? '' : ' (unpinned)';
        for (const [i, target] of list.entries()) {
          for (const transport of ['http', 'ws'] as const) {
            const load = (server: Server, secs: number) =>
              runLoad({
                transport,
                port: server.port,
                bodiesFile: files[i]!,
                seconds: secs,
                connections: transport === 'http' ? CONNECTIONS : WS_SOCKETS,
                inFlight: WS_IN_FLIGHT,
                cpus: pinned ? '1' : undefined,
                // A read's answer is checked once below; scanning every body in wrk's Lua would
                // make wrk, not the server, the limit. Posted transactions can be refused: count.
                countErrors: transport === 'ws' || target.method === 'txpool_postTransaction',
              });
            if (warmupSeconds > 0 && pinned) {
              await load(node, warmupSeconds);
              await load(ceiling, warmupSeconds);
            }
            const measured = async (server: Server) => {
              const r = await load(server, seconds);
              // Failed requests are not throughput: a run with more than 1 % of them is no figure.
              if (r.socketErrors + r.non2xx > r.requests / 100) throw new Error(`${target.method} over ${transport}: ${describe(r)}`);
              return r;
            };
            let ours = await measured(node);
            let top = await measured(ceiling);
            for (let round = 1; round < (pinned ? pinnedRounds : 1); round++) {
              ours = best(ours, await measured(node));
              top = best(top, await measured(ceiling));
            }
            const name = `rpc ${transport}${transport === 'http' ? httpClient : ''} ${target.method}${suffix}`;
            const topName = `rpc ${transport}${transport === 'http' ? httpClient : ''} uWS ceiling, ${target.method} answer${suffix}`;
            progress(`${name}: ${describe(ours)}`);
            progress(`${topName}: ${describe(top)}`);
            results.push({ name, value: ours.requestsPerSecond, unit: 'req/s', baseline: topName });
            if (pinned) {
              results.push({ name: `${name} p50`, value: ours.p50Ms, unit: 'ms' });
              results.push({ name: `${name} p99`, value: ours.p99Ms, unit: 'ms' });
            }
            results.push({ name: topName, value: top.requestsPerSecond, unit: 'req/s' });
            if (pinned) {
              // The ceiling's own latency under the same load: at saturation, closed-loop latency is
              // mostly queueing (64 connections / requests per second), so the node's tail is read
              // against this one.
              results.push({ name: `${topName} p50`, value: top.p50Ms, unit: 'ms' });
              results.push({ name: `${topName} p99`, value: top.p99Ms, unit: 'ms' });
            }
          }
        }
      }
      const info = JSON.parse(await rpcText(node.port, 'system_getNodeInfo')) as { result: { unconfirmedTransactions: number } };
      progress(
        `rpc-load: txpool_postTransaction: after the first pass (all ${list[3]!.bodies.length} new), every request re-posted a transfer the pool holds; the pool has ${info.result.unconfirmedTransactions}`,
      );
      return results;
    } finally {
      for (const s of servers) await s.stop();
      rmSync(work, { recursive: true, force: true });
    }
  },
};
