/**
 * How soon the chain connector relays a new certificate, on a Basalt mainchain + Basalt sidechain
 * pair (scripts/interop-pair.ts, run as is: registration both ways, connectors on both nodes,
 * a first cross-chain transfer, then relaying). Measured on the mainchain's connector, which runs
 * in the mainchain node: for every new certificate, the time from the storing of the block whose
 * aggregate commit certifies a new height (the node's "Generated block" log line; each node
 * produces all of its chain's blocks) to the connector's first "CCU sent" line after it with a
 * certificate at least that high (logged once the receiving chain's pool accepted the CCU). Both times come from the
 * same node's log, so the clock of the bench client plays no part. Two phases: without load, then
 * with chain_getBlockByHeight over WebSocket at half the capacity measured on the same node just
 * before (an open loop, as in the sync suite's serving rows). Target: within one block time (3 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './figure.js';
import { runLoad, type LoadResult } from './load-run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAINCHAIN_HOST = '127.0.0.150';
const SIDECHAIN_HOST = '127.0.0.151';
/** scripts/interop-pair.ts puts every node's RPC on this port of its own address. */
const RPC_PORT = 7887;
const BLOCK_TIME_MS = 3000;
const METHOD = 'chain_getBlockByHeight';

export interface ConnectorDelayOptions {
  readonly quick: boolean;
  readonly progress: (line: string) => void;
}

interface LogLine {
  readonly time: string;
  readonly msg?: string;
  readonly height?: number;
  readonly certificateHeight?: number;
}

export async function measureConnectorDelay(options: ConnectorDelayOptions): Promise<Measurement[]> {
  const { quick, progress } = options;
  const phaseSeconds = quick ? 24 : 45;
  const dataRoot = mkdtempSync(join(tmpdir(), 'basalt-bench-interop-pair-'));
  progress('interop: starting the Basalt mainchain + sidechain pair (registration, first CCUs, a transfer)');
  const pair = startPair(dataRoot);
  try {
    await pair.ready;
    progress(`interop: relaying; ${phaseSeconds} s without load`);
    const quietFrom = Date.now();
    await sleep(phaseSeconds * 1000);
    const quietTo = Date.now();

    const bodiesFile = join(dataRoot, 'bodies.txt');
    writeFileSync(bodiesFile, `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: METHOD, params: { height: 2 } })}\n`);
    const load = (seconds: number, rate?: number) =>
      runLoad({
        transport: 'ws',
        host: MAINCHAIN_HOST,
        port: RPC_PORT,
        bodiesFile,
        seconds,
        connections: 4,
        inFlight: 16,
        countErrors: true,
        rate,
      });
    const capacity = checked(await load(quick ? 2 : 4));
    const rate = Math.max(1, Math.round(capacity.requestsPerSecond / 2));
    progress(
      `interop: ${METHOD} capacity of the mainchain node ${Math.round(capacity.requestsPerSecond)} req/s; ${phaseSeconds} s at ${rate} req/s`,
    );
    const loadedFrom = Date.now();
    const loaded = checked(await load(phaseSeconds, rate));
    const loadedTo = Date.now();
    progress(
      `interop: under load: ${Math.round(loaded.requestsPerSecond)} req/s, p50 ${loaded.p50Ms.toFixed(2)} ms, p99 ${loaded.p99Ms.toFixed(2)} ms`,
    );

    const lines = readLog(join(dataRoot, 'mainchain.log'));
    const generated = new Map<number, number>();
    for (const line of lines) {
      if (line.msg === 'Generated block' && line.height !== undefined) generated.set(line.height, Date.parse(line.time));
    }
    const commitHeights = await aggregateCommitHeights([...generated.keys()]);
    const delays = relayDelays(lines, generated, commitHeights);
    const phase = (from: number, to: number) => delays.filter((d) => d.availableAt >= from && d.availableAt <= to).map((d) => d.ms);
    const rows: Measurement[] = [];
    for (const [label, values] of [
      ['no RPC load', phase(quietFrom, quietTo)],
      [`${METHOD} at half capacity`, phase(loadedFrom, loadedTo)],
    ] as const) {
      if (values.length === 0) throw new Error(`interop: no new certificate was relayed (${label}).`);
      const name = `interop connector: certificate stored → CCU posted, ${label}`;
      rows.push(
        { name: `${name}, p50 (target ≤ ${BLOCK_TIME_MS} ms)`, value: percentile(values, 0.5), unit: 'ms' },
        { name: `${name}, max (target ≤ ${BLOCK_TIME_MS} ms)`, value: Math.max(...values), unit: 'ms' },
        { name: `${name}, certificates`, value: values.length, unit: 'count' },
      );
    }
    rows.push(
      { name: `interop connector: ${METHOD} capacity of the mainchain node`, value: capacity.requestsPerSecond, unit: 'req/s' },
      { name: `interop connector: ${METHOD} served at half capacity`, value: loaded.requestsPerSecond, unit: 'req/s' },
    );
    return rows;
  } finally {
    await pair.stop();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}

/**
 * For each new certificate (a block whose aggregate commit certifies a height above every earlier
 * one), the delay from the storing of that block to the first CCU posted after it that carries a
 * certificate at least as high. A certificate the connector skipped because a newer one came
 * first counts until that newer one is posted.
 */
function relayDelays(
  lines: readonly LogLine[],
  generated: ReadonlyMap<number, number>,
  commitHeights: ReadonlyMap<number, number>,
): { availableAt: number; ms: number }[] {
  const sent = lines
    .filter((line) => line.msg === 'Chain connector: CCU sent' && line.certificateHeight !== undefined)
    .map((line) => ({ at: Date.parse(line.time), certified: line.certificateHeight as number }));
  const delays: { availableAt: number; ms: number }[] = [];
  let highest = 0;
  for (const [height, certified] of [...commitHeights].sort(([a], [b]) => a - b)) {
    const availableAt = generated.get(height);
    if (certified <= highest || availableAt === undefined) continue;
    highest = certified;
    const posted = sent.find((ccu) => ccu.certified >= certified && ccu.at >= availableAt);
    if (posted !== undefined) delays.push({ availableAt, ms: posted.at - availableAt });
  }
  return delays;
}

async function aggregateCommitHeights(heights: readonly number[]): Promise<Map<number, number>> {
  const commits = new Map<number, number>();
  for (const height of heights) {
    const response = await fetch(`http://${MAINCHAIN_HOST}:${RPC_PORT}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: METHOD, params: { height } }),
    });
    const answer = (await response.json()) as { result?: { header: { aggregateCommit: { height: number } } } };
    if (answer.result !== undefined) commits.set(height, answer.result.header.aggregateCommit.height);
  }
  return commits;
}

function readLog(path: string): LogLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function startPair(dataRoot: string): { ready: Promise<void>; stop: () => Promise<void> } {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'scripts/interop-pair.ts'),
      '--fresh',
      '--data-root',
      dataRoot,
      '--mainchain-host',
      MAINCHAIN_HOST,
      '--sidechain-host',
      SIDECHAIN_HOST,
      '--timeout-seconds',
      '300',
      '--log',
      'info',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const check = (): void => {
      if (output.includes('Relaying until Ctrl-C.')) resolve();
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`scripts/interop-pair.ts exited before relaying:\n${output}`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  return { ready, stop };
}

function checked(result: LoadResult): LoadResult {
  if (result.rpcErrors !== 0 || result.socketErrors + result.non2xx > 0) {
    throw new Error(`interop: the RPC load saw ${result.rpcErrors} error answers and ${result.socketErrors} socket errors.`);
  }
  return result;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
