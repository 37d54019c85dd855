/**
 * Slow and abusive RPC clients against a real `basalt start` devnet node: slowloris headers and
 * bodies, WebSocket clients that never read, thousands of idle sockets, a node out of file
 * descriptors, and subscription floods. Meanwhile a well-behaved client (a child process, see
 * test/support/steady-rpc-client.ts) calls `system_getNodeInfo` and `chain_getLastBlock` over
 * HTTP and WebSocket at a steady rate.
 *
 * Asserted for every attack: the node never exits, the well-behaved client gets every answer,
 * and its p99 stays under P99_LIVENESS_MS. That bound is a gross liveness bound (the node is not
 * starved), not a performance target: the machine running the suite may be busy with other work.
 * Printed: the well-behaved client's p50/p99 before and during each attack, sockets held, closes
 * observed, and the node's RSS, CPU and open file descriptors before and after.
 *
 * The reduced run (`npm test`) takes about a minute; BASALT_ABUSE_FULL=1 (`npm run test:soak`)
 * scales every attack up (10,000 idle sockets) and takes a few minutes. Linux only: it reads
 * /proc and changes the node's descriptor limit with prlimit(1).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { ROOT, startBasaltNode, stopProcess, waitFor, type NodeProcess } from '../support/node-process.js';
import type { SteadyCommand, SteadyPhaseReport, SteadyReport } from '../support/steady-rpc-client.js';

const FULL = process.env.BASALT_ABUSE_FULL === '1';
const SCALE = FULL
  ? {
      baselineMs: 10_000,
      slowSockets: 600,
      nonReaderWaves: 4,
      nonReaders: 8,
      idleSockets: 10_000,
      fdSockets: 2_000,
      subscribers: 2_000,
      subscribeFlood: 5_000,
      holdMs: 10_000,
    }
  : {
      baselineMs: 4_000,
      slowSockets: 150,
      nonReaderWaves: 1,
      nonReaders: 8,
      idleSockets: 1_000,
      fdSockets: 600,
      subscribers: 200,
      // The node's first refused subscriptions run cold (about 0.7 s for 5,000, 60 ms once warm).
      subscribeFlood: 2_000,
      holdMs: 3_000,
    };

/**
 * The gross liveness bound on the well-behaved client's p99 (see the file comment). The suite
 * shares two cores with other jobs, where the node's own event loop was seen to stall for up to
 * about a second during the biggest attacks; BASALT_ABUSE_P99_MS sets a tighter bound (e.g.
 * 500) on a quiet machine.
 */
const P99_LIVENESS_MS = Number(process.env.BASALT_ABUSE_P99_MS ?? 1_000) || 1_000;
/**
 * Out of descriptors, uSockets retries `accept` on every turn of the event loop (strace counts
 * about 40,000 failed calls a second), so the node's main thread never idles and a busy machine
 * delays it more: this phase gets twice the bound. It is still a liveness bound.
 */
const FD_LIMIT_P99_LIVENESS_MS = 2 * P99_LIVENESS_MS;
/** How often the well-behaved client sends one HTTP and one WebSocket request. */
const STEADY_INTERVAL_MS = 50;
/** The shortest phase: the well-behaved client sends 20 requests of each kind in it. */
const MIN_PHASE_MS = 1_000;

/** The node binds RPC, P2P and metrics here; each kind of client connects from its own address. */
const NODE_HOST = '127.0.0.120';
const STEADY_FROM = '127.0.0.121';
const SLOW_FROM = '127.0.0.122';
const IDLE_FROM = '127.0.0.123';
const WS_FROM = '127.0.0.124';

/** The uWS HTTP timeout is 10 s in ticks of 4 s: a slow or silent connection goes within 12 s. */
const SLOW_CLOSE_DEADLINE_MS = 25_000;
const SLOW_BYTE_INTERVAL_MS = 300;
/** A large answer (the module metadata, about 75 KB) to fill a non-reading socket's send buffer. */
const LARGE_ANSWER_METHOD = 'system_getMetadata';
const REQUESTS_PER_NON_READER = 200;
/** topics.ts MAX_TOPICS_PER_SOCKET and MAX_TOPIC_LENGTH. */
const MAX_TOPICS = 256;
const MAX_TOPIC_LENGTH = 256;

// ---------------------------------------------------------------------------------------------
// The node's process, seen from outside

interface NodeStats {
  readonly rssBytes: number;
  readonly cpuSeconds: number;
  readonly fds: number;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function processStats(pid: number): NodeStats {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssBytes: rssKb * 1024, cpuSeconds: ticks / CLOCK_TICKS, fds: readdirSync(`/proc/${pid}/fd`).length };
}

/** The soft and hard "Max open files" of a process. */
function fdLimits(pid: number | 'self'): { soft: number; hard: number } {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  const value = (text: string | undefined): number => (text === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(text));
  return { soft: value(line?.[1]), hard: value(line?.[2]) };
}

function setFdLimit(pid: number, soft: number, hard: number): void {
  execFileSync('prlimit', ['--pid', String(pid), `--nofile=${soft}:${hard}`]);
}

const hasPrlimit = (() => {
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;

// ---------------------------------------------------------------------------------------------
// The well-behaved client

class SteadyClient {
  private reports: ((report: SteadyReport) => void)[] = [];

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: { type: string; report?: SteadyReport }) => {
      if (message.type === 'report') this.reports.shift()?.(message.report as SteadyReport);
    });
  }

  static async start(port: number): Promise<SteadyClient> {
    const child = fork(
      join(ROOT, 'test/support/steady-rpc-client.ts'),
      [NODE_HOST, String(port), String(STEADY_INTERVAL_MS), STEADY_FROM],
      {
        execArgv: ['--import', 'tsx'],
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the steady client exited (${code})`)));
    });
    return new SteadyClient(child);
  }

  phase(name: string): void {
    this.child.send({ type: 'phase', name } satisfies SteadyCommand);
  }

  report(): Promise<SteadyReport> {
    return new Promise((resolve) => {
      this.reports.push(resolve);
      this.child.send({ type: 'report' } satisfies SteadyCommand);
    });
  }

  /** The figures of `phase` once every request sent during it is answered or timed out. */
  settled(phase: string): Promise<SteadyPhaseReport> {
    return waitFor(
      `the well-behaved client's answers of phase ${phase}`,
      async () => {
        const report = (await this.report())[phase];
        return report !== undefined && report.pending === 0 ? report : undefined;
      },
      15_000,
    );
  }

  stop(): void {
    if (this.child.connected) this.child.send({ type: 'stop' } satisfies SteadyCommand);
  }
}

// ---------------------------------------------------------------------------------------------
// Attackers

/** What an attack reports for the summary. */
interface AttackFigures {
  /** Most attacking sockets open at once. */
  readonly held: number;
  /** Attacking sockets the node closed (or, for WebSockets, counted as closed). */
  readonly closes: number;
  readonly note?: string;
}

/** A raw TCP connection to the node from `localAddress`; resolves when connected. */
function connectRaw(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: NODE_HOST, port, localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Runs `open` for `count` items, at most `width` at a time. */
async function inBatches<T>(count: number, width: number, open: (index: number) => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = [];
  for (let start = 0; start < count; start += width) {
    const batch = Array.from({ length: Math.min(width, count - start) }, (_, i) => open(start + i));
    results.push(...(await Promise.allSettled(batch)));
  }
  return results;
}

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

/** A `ws` client with its socket's underlying TCP socket (to pause it: a client that never reads). */
function openWebSocket(port: number, localAddress: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${NODE_HOST}:${port}/rpc-ws`, { localAddress, perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function tcpSocketOf(ws: WebSocket): net.Socket {
  // `ws` keeps its TCP socket private; pausing it is how a client stops reading.
  return (ws as unknown as { _socket: net.Socket })._socket;
}

/** Sends `requests` on `ws` and resolves with the parsed answers once all arrived. */
function askAll(
  ws: WebSocket,
  requests: readonly object[],
  timeoutMs: number,
): Promise<{ id: number; result?: unknown; error?: { code: number } }[]> {
  return new Promise((resolve, reject) => {
    const answers: { id: number; result?: unknown; error?: { code: number } }[] = [];
    const timer = setTimeout(() => reject(new Error(`${answers.length} of ${requests.length} answers within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (data: WebSocket.RawData): void => {
      const answer = JSON.parse(String(data)) as { id?: number };
      if (typeof answer.id !== 'number') return; // a notification
      answers.push(answer as { id: number });
      if (answers.length === requests.length) {
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve(answers);
      }
    };
    ws.on('message', onMessage);
    for (const request of requests) ws.send(JSON.stringify(request));
  });
}

// ---------------------------------------------------------------------------------------------

interface SummaryRow {
  readonly phase: string;
  readonly steady: SteadyPhaseReport;
  readonly figures: AttackFigures;
  readonly before: NodeStats;
  readonly after: NodeStats;
  readonly seconds: number;
  /** The node's own longest event-loop delay during the phase: its share of the client's latency. */
  readonly loopLagMaxMs: number;
  /** The machine's one-minute load average at the end of the phase (two cores run the suite). */
  readonly load: number;
}

describe.skipIf(process.platform !== 'linux')('RPC under slow and abusive clients', () => {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-abuse-'));
  let node: NodeProcess;
  let pid: number;
  let rpcPort: number;
  let metricsPort: number;
  let steady: SteadyClient;
  const rows: SummaryRow[] = [];
  let baselineFds = 0;
  let idleSockets: number = SCALE.idleSockets;

  /** The node's longest event-loop delay since the phase began (each scrape resets its monitor). */
  let loopLagMaxMs = 0;
  const scrape = async (): Promise<{ webSockets: number; backpressureCloses: number }> => {
    const text = parsePrometheusText(await (await fetch(`http://${NODE_HOST}:${metricsPort}/metrics`)).text());
    loopLagMaxMs = Math.max(loopLagMaxMs, (text.value('basalt_nodejs_eventloop_lag_max_seconds') ?? 0) * 1000);
    return {
      webSockets: text.value('basalt_rpc_websockets') ?? -1,
      backpressureCloses: text.value('basalt_rpc_websocket_backpressure_closes_total') ?? -1,
    };
  };

  const expectAlive = (): void => {
    expect(node.child.exitCode, node.output().slice(-4000)).toBeNull();
    expect(node.child.signalCode).toBeNull();
  };

  /**
   * Runs `attack` while the well-behaved client files its latencies under `phase`, then checks
   * the node lived through it and the client got every answer within the liveness bound.
   */
  const underAttack = async (phase: string, attack: () => Promise<AttackFigures>, p99BoundMs = P99_LIVENESS_MS): Promise<void> => {
    await scrape();
    loopLagMaxMs = 0;
    const before = processStats(pid);
    const started = performance.now();
    steady.phase(phase);
    let figures: AttackFigures;
    try {
      figures = await attack();
      // A phase lasts long enough for the well-behaved client to send a few requests in it.
      await sleep(MIN_PHASE_MS - (performance.now() - started));
    } finally {
      steady.phase(`after ${phase}`);
    }
    const seconds = (performance.now() - started) / 1000;
    expectAlive();
    const after = processStats(pid);
    await scrape();
    const report = await steady.settled(phase);
    rows.push({ phase, steady: report, figures, before, after, seconds, loopLagMaxMs, load: loadavg()[0] ?? 0 });
    expect(report.failures).toEqual([]);
    expect(report.http.count).toBeGreaterThan(0);
    expect(report.ws.count).toBeGreaterThan(0);
    expect(report.http.p99, `HTTP p99 during ${phase}`).toBeLessThan(p99BoundMs);
    expect(report.ws.p99, `WebSocket p99 during ${phase}`).toBeLessThan(p99BoundMs);
  };

  beforeAll(async () => {
    // Every socket costs a descriptor on both ends: use the whole hard limit (the node inherits it).
    const own = fdLimits('self');
    if (hasPrlimit && own.soft < own.hard) setFdLimit(process.pid, Math.min(own.hard, 1 << 20), own.hard);
    // Both processes need a descriptor per idle socket, and some for everything else.
    idleSockets = Math.min(SCALE.idleSockets, fdLimits('self').soft - 1_000);
    if (idleSockets < SCALE.idleSockets) console.warn(`Descriptor limit: ${idleSockets} idle sockets instead of ${SCALE.idleSockets}`);
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ network: { host: NODE_HOST } }));
    node = startBasaltNode([
      '--data-path',
      join(dir, 'data'),
      '--config',
      config,
      '--api-host',
      NODE_HOST,
      '--enable-metrics',
      '--metrics-host',
      NODE_HOST,
      '--metrics-port',
      '0',
    ]);
    const ports = await node.ports();
    pid = node.child.pid as number;
    rpcPort = ports.rpc;
    metricsPort = ports.metrics as number;
    steady = await SteadyClient.start(rpcPort);
  }, 120_000);

  afterAll(async () => {
    steady?.stop();
    if (node) await stopProcess(node.child);
    rmSync(dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    const lines = rows.map((row) => {
      const { steady: s, figures: f, before: b, after: a } = row;
      const cpu = ((a.cpuSeconds - b.cpuSeconds) / row.seconds) * 100;
      return [
        row.phase.padEnd(22),
        `http p50/p99 ${s.http.p50.toFixed(1)}/${s.http.p99.toFixed(1)} ms`.padEnd(28),
        `ws p50/p99 ${s.ws.p50.toFixed(1)}/${s.ws.p99.toFixed(1)} ms`.padEnd(26),
        `n=${s.http.count}+${s.ws.count}`.padEnd(10),
        `held ${f.held}`.padEnd(11),
        `closes ${f.closes}`.padEnd(13),
        `rss ${mb(b.rssBytes)} -> ${mb(a.rssBytes)}`.padEnd(22),
        `fds ${b.fds} -> ${a.fds}`.padEnd(17),
        `cpu ${cpu.toFixed(0)}%`.padEnd(9),
        `loop lag max ${row.loopLagMaxMs.toFixed(0)} ms`.padEnd(20),
        `load ${row.load.toFixed(1)}`.padEnd(10),
        f.note ?? '',
      ].join(' ');
    });
    console.log(
      `RPC abuse (${FULL ? 'full' : 'reduced'}; liveness bound p99 < ${P99_LIVENESS_MS} ms, ${FD_LIMIT_P99_LIVENESS_MS} ms out of descriptors):\n${lines.join('\n')}`,
    );
  });

  it('serves the well-behaved client before any attack', async () => {
    // A node just started compiles and caches as it serves its first requests and blocks: the
    // baseline starts once a few blocks are in and the well-behaved client has run a while.
    await waitFor(
      'height 3',
      async () => {
        const response = await fetch(`http://${NODE_HOST}:${rpcPort}/rpc`, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_getNodeInfo' }),
        });
        return ((await response.json()) as { result: { height: number } }).result.height >= 3 ? true : undefined;
      },
      60_000,
    );
    await sleep(2_000);
    await underAttack('baseline', async () => {
      await sleep(SCALE.baselineMs);
      return { held: 0, closes: 0 };
    });
    baselineFds = processStats(pid).fds;
  }, 60_000);

  it('closes slowloris connections: headers a byte at a time, trickling bodies, silent sockets', async () => {
    await underAttack('slowloris', async () => {
      const kinds = ['headers', 'body', 'silent'] as const;
      const head = 'POST /rpc HTTP/1.1\r\nHost: basalt\r\nContent-Type: application/json\r\n';
      const results = await inBatches(SCALE.slowSockets, 100, async (index) => {
        const socket = await connectRaw(rpcPort, SLOW_FROM);
        const kind = kinds[index % kinds.length] as (typeof kinds)[number];
        const opened = performance.now();
        const closed = new Promise<{ kind: string; afterMs: number; answered: boolean }>((resolve) => {
          let answered = false;
          socket.on('data', () => (answered = true));
          socket.on('error', () => undefined);
          socket.once('close', () => resolve({ kind, afterMs: performance.now() - opened, answered }));
        });
        // A body that would be accepted if it ever arrived: under the 1 MiB limit.
        if (kind === 'body') socket.write(`${head}Content-Length: 1000000\r\n\r\n{"jsonrpc":"2.0","id":1,`);
        return { socket, kind, closed };
      });
      const slow = results.map((result) => {
        if (result.status === 'rejected') throw result.reason;
        return result.value;
      });
      let written = 0;
      const trickle = setInterval(() => {
        for (const { socket, kind } of slow) {
          if (socket.destroyed || kind === 'silent') continue;
          socket.write(kind === 'headers' && written < head.length ? (head[written] as string) : kind === 'headers' ? 'x' : ' ');
        }
        written += 1;
      }, SLOW_BYTE_INTERVAL_MS);
      const deadline = sleep(SLOW_CLOSE_DEADLINE_MS).then(() => 'deadline' as const);
      const outcome = await Promise.race([Promise.all(slow.map((entry) => entry.closed)), deadline]);
      clearInterval(trickle);
      for (const { socket } of slow) socket.destroy();
      // No timeout on slow headers or bodies would be a defect: every one must have been closed.
      expect(outcome, 'slowloris sockets still open at the deadline').not.toBe('deadline');
      const closes = outcome === 'deadline' ? [] : outcome;
      expect(closes.filter((entry) => entry.answered)).toEqual([]);
      const byKind = kinds.map((kind) => {
        const times = closes.filter((entry) => entry.kind === kind).map((entry) => entry.afterMs / 1000);
        return `${kind} closed after ${percentile(times, 0.5).toFixed(1)}-${percentile(times, 1).toFixed(1)} s`;
      });
      return { held: slow.length, closes: closes.length, note: byKind.join(', ') };
    });
  }, 120_000);

  it('cuts off WebSocket clients that subscribe and never read, and frees what they held', async () => {
    await underAttack('ws non-readers', async () => {
      let cut = 0;
      let codes: number[] = [];
      const rss: string[] = [];
      for (let wave = 0; wave < SCALE.nonReaderWaves; wave += 1) {
        const fdsBefore = processStats(pid).fds;
        const { backpressureCloses: closesBefore } = await scrape();
        const clients = await Promise.all(Array.from({ length: SCALE.nonReaders }, () => openWebSocket(rpcPort, WS_FROM)));
        const closed = clients.map((ws) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code))));
        for (const ws of clients) {
          ws.on('error', () => undefined);
          await askAll(ws, [{ jsonrpc: '2.0', id: 0, method: 'subscribe', params: { topics: [''] } }], 10_000);
          tcpSocketOf(ws).pause();
        }
        // Ask for large answers in steps, as a client streaming requests would.
        for (let sent = 0; sent < REQUESTS_PER_NON_READER; sent += 20) {
          for (const ws of clients) {
            for (let i = 0; i < 20; i += 1) ws.send(JSON.stringify({ jsonrpc: '2.0', id: sent + i + 1, method: LARGE_ANSWER_METHOD }));
          }
          await sleep(20);
        }
        await waitFor(
          'the node to cut off every non-reading WebSocket',
          async () => ((await scrape()).backpressureCloses - closesBefore >= clients.length ? true : undefined),
          30_000,
        );
        cut += (await scrape()).backpressureCloses - closesBefore;
        rss.push(mb(processStats(pid).rssBytes));
        // Half the clients read again and see why they were closed; the other half never read:
        // the node must still let go of their sockets (and the buffers behind them).
        const readers = clients.slice(0, clients.length / 2);
        for (const ws of readers) tcpSocketOf(ws).resume();
        codes = codes.concat(await Promise.all(closed.slice(0, readers.length)));
        await waitFor(
          'the node to release the sockets of clients that never read',
          async () => (processStats(pid).fds <= fdsBefore ? true : undefined),
          40_000,
        );
        for (const ws of clients) ws.terminate();
      }
      expect(new Set(codes)).toEqual(new Set([1008]));
      expect(cut).toBe(SCALE.nonReaderWaves * SCALE.nonReaders);
      return { held: SCALE.nonReaders, closes: cut, note: `RSS after each wave: ${rss.join(', ')}; codes seen by readers: 1008` };
    });
  }, 300_000);

  it(`holds ${SCALE.idleSockets} idle WebSockets`, async () => {
    let clients: WebSocket[] = [];
    let closedByNode = 0;
    // Two phases: the connection burst (the handshakes), then the sockets held open and silent.
    await underAttack('idle: connecting', async () => {
      const results = await inBatches(idleSockets, 200, () => openWebSocket(rpcPort, IDLE_FROM));
      clients = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      for (const ws of clients) {
        ws.on('error', () => undefined);
        ws.once('close', () => (closedByNode += 1));
      }
      const failed = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
      expect(failed).toEqual([]);
      return { held: clients.length, closes: closedByNode };
    });
    await underAttack('idle: held', async () => {
      const held = (await scrape()).webSockets;
      const fds = processStats(pid).fds;
      await sleep(SCALE.holdMs);
      expect(closedByNode).toBe(0);
      expectAlive();
      // One more request on a few of the idle sockets: they are idle, not dead.
      for (const ws of clients.slice(0, 10)) {
        const [answer] = await askAll(ws, [{ jsonrpc: '2.0', id: 1, method: 'system_getNodeInfo' }], 10_000);
        expect(answer?.result).toBeDefined();
      }
      return { held, closes: closedByNode, note: `node fds with the sockets open: ${fds}` };
    });
    // Every client leaves at once, as when a proxy in front of them goes away.
    await underAttack('idle: disconnecting', async () => {
      const open = (await scrape()).webSockets;
      for (const ws of clients) ws.terminate();
      await waitFor('the node to close the idle sockets', async () => ((await scrape()).webSockets <= 1 ? true : undefined), 60_000);
      // The node's own count: every socket it saw go.
      return { held: clients.length, closes: open - (await scrape()).webSockets };
    });
  }, 300_000);

  it.skipIf(!hasPrlimit)(
    'refuses connections past its descriptor limit without failing its clients',
    async () => {
      const limits = fdLimits(pid);
      await waitFor('the idle sockets to be released', async () => (processStats(pid).fds <= baselineFds + 20 ? true : undefined), 60_000, {
        output: () => `node fds ${processStats(pid).fds}, after the baseline ${baselineFds}`,
      });
      await underAttack(
        'fd limit',
        async () => {
          const headroom = 200;
          const limit = processStats(pid).fds + headroom;
          setFdLimit(pid, limit, limits.hard);
          const sockets: net.Socket[] = [];
          let connected = 0;
          let closedByNode = 0;
          let cpu = '';
          try {
            for (let i = 0; i < SCALE.fdSockets; i += 1) {
              const socket = net.connect({ host: NODE_HOST, port: rpcPort, localAddress: IDLE_FROM });
              socket.on('error', () => undefined);
              socket.once('connect', () => (connected += 1));
              socket.once('close', () => (closedByNode += 1));
              sockets.push(socket);
            }
            // Measured once the node has run out: its CPU while connections wait that it cannot accept.
            await sleep(2_000);
            const from = processStats(pid);
            await sleep(SCALE.holdMs);
            const to = processStats(pid);
            cpu = `${(((to.cpuSeconds - from.cpuSeconds) / (SCALE.holdMs / 1000)) * 100).toFixed(0)}% CPU while out of descriptors`;
            expect(to.fds).toBeLessThanOrEqual(limit);
            expectAlive();
          } finally {
            for (const socket of sockets) socket.removeAllListeners('close').destroy();
            setFdLimit(pid, limits.soft, limits.hard);
          }
          return {
            held: connected,
            closes: closedByNode,
            note: `node limit ${limit} descriptors; ${cpu}; connected counts the listen backlog`,
          };
        },
        FD_LIMIT_P99_LIVENESS_MS,
      );
      // Descriptors are free again: a new connection is accepted and answered.
      const answer = await waitFor(
        'a fresh connection to be answered',
        async () => {
          const response = await fetch(`http://${NODE_HOST}:${rpcPort}/rpc`, {
            method: 'POST',
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_getNodeInfo' }),
          });
          return (await response.json()) as { result?: unknown };
        },
        20_000,
      );
      expect(answer.result).toBeDefined();
    },
    120_000,
  );

  it('answers a flood of subscribe requests on one socket', async () => {
    await underAttack('subscribe flood', async () => {
      // Thousands of subscribe requests at once, each a new topic: past the per-socket topic
      // limit each one is refused, and every request is answered.
      const flooder = await openWebSocket(rpcPort, WS_FROM);
      let closedByNode = 0;
      flooder.once('close', () => (closedByNode += 1));
      const requests = Array.from({ length: SCALE.subscribeFlood }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'subscribe',
        params: { topics: [`flood_${i}`] },
      }));
      const answers = await askAll(flooder, requests, 60_000);
      expect(answers.filter((answer) => answer.result !== undefined)).toHaveLength(MAX_TOPICS);
      expect(answers.filter((answer) => answer.error?.code === -32602)).toHaveLength(SCALE.subscribeFlood - MAX_TOPICS);
      // The socket now holds the most topics: it stays usable while blocks are published.
      await sleep(SCALE.holdMs);
      const [answer] = await askAll(flooder, [{ jsonrpc: '2.0', id: 0, method: 'system_getNodeInfo' }], 10_000);
      expect(answer?.result).toBeDefined();
      flooder.terminate();
      return { held: 1, closes: closedByNode, note: `${SCALE.subscribeFlood} subscribe requests sent at once, all answered` };
    });
  }, 120_000);

  it(`delivers blocks to ${SCALE.subscribers} subscribed sockets`, async () => {
    await underAttack('many subscribers', async () => {
      // Half hold the most topics at their longest, none matching an event (the most memory a
      // socket can make the node keep, and a check per topic on each event); half subscribe to
      // chain_newBlock and must receive new blocks.
      const results = await inBatches(SCALE.subscribers, 200, () => openWebSocket(rpcPort, WS_FROM));
      const clients = results.map((result) => {
        if (result.status === 'rejected') throw result.reason;
        return result.value;
      });
      let closedByNode = 0;
      for (const ws of clients) ws.once('close', () => (closedByNode += 1));
      const listeners = clients.filter((_, i) => i % 2 === 0);
      const idlers = clients.filter((_, i) => i % 2 === 1);
      const blocksSeen = new Map<WebSocket, number>();
      for (const ws of listeners) {
        ws.on('message', (data) => {
          if (String(data).includes('"method":"chain_newBlock"')) blocksSeen.set(ws, (blocksSeen.get(ws) ?? 0) + 1);
        });
      }
      // Subscribed a hundred sockets at a time, as they connected.
      const subscribed = await inBatches(listeners.length, 100, async (n) => {
        const idlerTopics = Array.from({ length: MAX_TOPICS }, (_, i) => `nothing_${n}_${i}_`.padEnd(MAX_TOPIC_LENGTH, 'x'));
        const subscribe = (ws: WebSocket | undefined, topics: string[]) =>
          ws === undefined ? undefined : askAll(ws, [{ jsonrpc: '2.0', id: 1, method: 'subscribe', params: { topics } }], 30_000);
        await Promise.all([subscribe(listeners[n], ['chain_newBlock']), subscribe(idlers[n], idlerTopics)]);
      });
      expect(subscribed.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
      const held = (await scrape()).webSockets;
      await waitFor(
        'every subscriber to receive two blocks',
        async () => (listeners.every((ws) => (blocksSeen.get(ws) ?? 0) >= 2) ? true : undefined),
        30_000,
      );
      await sleep(SCALE.holdMs);
      const closes = closedByNode;
      for (const ws of clients) ws.terminate();
      return { held, closes, note: `${listeners.length} on chain_newBlock, ${idlers.length} with ${MAX_TOPICS} topics matching nothing` };
    });
  }, 180_000);

  it('stops cleanly after every attack', async () => {
    expectAlive();
    steady.stop();
    expect(await stopProcess(node.child)).toBe(0);
  }, 60_000);
});
