/**
 * Serving blocks to syncing peers while answering RPC: the node pinned to core 0; on core 1, an
 * open-loop RPC load at half the node's measured capacity (the rpc-load suite's WebSocket client,
 * lib/load-client.ts) and, in every second run, 8 peers asking getBlocksFromId at Lisk's limit
 * (lib/sync-peers.ts). The RPC latency of the runs without peers is the baseline of the runs with
 * them (target: a p99 at most 20 % higher).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './figure.js';
import { pinProcess, runLoad, type LoadResult } from './load-run.js';
import { rpcText } from './rpc-node.js';
import type { SyncPeersConfig } from './sync-peers.js';

const SYNC_PEERS = fileURLToPath(new URL('./sync-peers.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Same shape as the rpc-load suite's WS runs: 4 sockets (16 requests in flight each when closed-loop). */
const WS_SOCKETS = 4;
const WS_IN_FLIGHT = 16;
/** chain_getBlockByHeight of the dev chain's largest block with transactions, as in rpc-load. */
const METHOD = 'chain_getBlockByHeight';
const PARAMS = { height: 106 };

export interface ServingLoadOptions {
  readonly work: string;
  readonly node: { readonly pid: number; readonly rpcPort: number };
  /** The peers' settings, addresses included (one per peer). */
  readonly peers: SyncPeersConfig;
  readonly quick: boolean;
  readonly progress: (line: string) => void;
}

interface PeersRun {
  readonly answered: number;
  readonly failed: number;
  readonly firstError?: string;
  readonly bytes: number;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Starts the peers on core 1; resolves once every one is connected. */
async function startPeers(config: SyncPeersConfig): Promise<{ child: ChildProcess; stop: () => Promise<PeersRun> }> {
  const child = spawn('taskset', ['-c', '1', process.execPath, '--import', 'tsx', SYNC_PEERS, JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The peers did not connect within 60 s:\n${output}`)), 60_000);
    const check = (): void => {
      if (output.includes('READY\n')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The peers exited (${code}):\n${output}`));
    });
  });
  const stop = async (): Promise<PeersRun> => {
    child.stdin!.end('stop\n');
    await exited;
    const line = output.split('\n').find((l) => l.startsWith('BENCH '));
    if (line === undefined) throw new Error(`The peers printed no result:\n${output}`);
    return JSON.parse(line.slice(6)) as PeersRun;
  };
  return { child, stop };
}

function describe(r: LoadResult): string {
  return `${Math.round(r.requestsPerSecond)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`;
}

/** The run with the lower p99 (each condition keeps its best round, as elsewhere in the bench). */
function lowerTail<T extends { p99Ms: number }>(best: T | undefined, run: T): T {
  return best === undefined || run.p99Ms < best.p99Ms ? run : best;
}

export async function measureServingUnderLoad(options: ServingLoadOptions): Promise<Measurement[]> {
  const { work, node, peers, quick, progress } = options;
  pinProcess(node.pid, '0');
  const answer = await rpcText(node.rpcPort, METHOD, PARAMS);
  if (!answer.includes('"result"')) throw new Error(`${METHOD} answered ${answer.slice(0, 200)}`);
  const bodiesFile = join(work, 'serving-bodies.txt');
  writeFileSync(bodiesFile, `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: METHOD, params: PARAMS })}\n`);
  const load = (seconds: number, rate?: number) =>
    runLoad({
      transport: 'ws',
      port: node.rpcPort,
      bodiesFile,
      seconds,
      connections: WS_SOCKETS,
      inFlight: WS_IN_FLIGHT,
      cpus: '1',
      countErrors: true,
      rate,
    });
  const checked = (r: LoadResult, what: string): LoadResult => {
    if (r.rpcErrors !== 0 || r.socketErrors + r.non2xx > 0)
      throw new Error(`${what}: ${r.rpcErrors} error answers, ${r.socketErrors} socket errors`);
    return r;
  };

  if (!quick) await load(1);
  const capacity = checked(await load(quick ? 2 : 4), 'capacity run');
  const rate = Math.round(capacity.requestsPerSecond / 2);
  progress(`sync serving: rpc ws ${METHOD} capacity with the node on one core: ${describe(capacity)}; fixed load: ${rate} req/s`);

  const seconds = quick ? 4 : 10;
  if (!quick) await load(1, rate);
  let alone: LoadResult | undefined;
  let loaded: LoadResult | undefined;
  let served: PeersRun | undefined;
  for (let round = 1; round <= (quick ? 1 : 2); round++) {
    const quiet = checked(await load(seconds, rate), 'run without peers');
    progress(`sync serving: ${rate} req/s without peers: ${describe(quiet)}`);
    alone = lowerTail(alone, quiet);
    const running = await startPeers(peers);
    let busy: LoadResult;
    let peersRun: PeersRun;
    try {
      busy = checked(await load(seconds, rate), 'run with peers');
    } finally {
      peersRun = await running.stop();
    }
    const mb = peersRun.bytes / peersRun.seconds / 1e6;
    progress(
      `sync serving: ${rate} req/s with ${peers.hosts.length} peers: ${describe(busy)}; peers got ${(peersRun.answered / peersRun.seconds).toFixed(1)} getBlocksFromId/s (${mb.toFixed(1)} MB/s, p99 ${peersRun.p99Ms.toFixed(0)} ms), ${peersRun.failed} failed`,
    );
    if (peersRun.failed > 0) throw new Error(`${peersRun.failed} getBlocksFromId requests failed, the first with: ${peersRun.firstError}`);
    loaded = lowerTail(loaded, busy);
    if (loaded === busy) served = peersRun;
  }
  const stats = JSON.parse(await rpcText(node.rpcPort, 'network_getStats')) as { result: { banning: { count: number } } };
  if (stats.result.banning.count !== 0) throw new Error('The node banned one of the peers.');

  const base = `sync serving: rpc ws ${METHOD} at half capacity, node on one core`;
  const withPeers = `${base}, ${peers.hosts.length} peers at the getBlocksFromId limit`;
  return [
    { name: `sync serving: rpc ws ${METHOD} capacity, node on one core`, value: capacity.requestsPerSecond, unit: 'req/s' },
    { name: `${base} p50`, value: alone!.p50Ms, unit: 'ms' },
    { name: `${base} p99`, value: alone!.p99Ms, unit: 'ms' },
    { name: `${withPeers} p50`, value: loaded!.p50Ms, unit: 'ms', baseline: `${base} p50` },
    { name: `${withPeers} p99`, value: loaded!.p99Ms, unit: 'ms', baseline: `${base} p99` },
    {
      name: `sync serving: getBlocksFromId answered to ${peers.hosts.length} peers`,
      value: served!.answered / served!.seconds,
      unit: 'req/s',
    },
  ];
}
