/**
 * Runs one load test against a server and reads its result: wrk for HTTP when it is installed
 * (Debian: `apt-get install wrk`), Basalt's own client (load-client.ts) for WebSocket and as the
 * HTTP fallback. The load generator runs as its own process, pinned to `cpus` when given, so it
 * never shares a core with a pinned server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processTree } from './measured-run.js';

const WRK_SCRIPT = fileURLToPath(new URL('./wrk-rpc.lua', import.meta.url));
const LOAD_CLIENT = fileURLToPath(new URL('./load-client.ts', import.meta.url));

export interface LoadOptions {
  readonly transport: 'http' | 'ws';
  readonly port: number;
  /** The server's address (default 127.0.0.1). */
  readonly host?: string;
  /** One JSON-RPC request per line, each with `"id":1,` (the WS client renumbers them). */
  readonly bodiesFile: string;
  readonly seconds: number;
  /** HTTP connections (wrk -c) or WebSocket sockets. */
  readonly connections: number;
  /** Requests in flight per WebSocket (HTTP/1.1 has one per connection). */
  readonly inFlight?: number;
  /** `taskset -c` list for the load generator; undefined: not pinned. */
  readonly cpus?: string;
  /** Count answers carrying a JSON-RPC error (slower for wrk: it must scan every body). */
  readonly countErrors?: boolean;
  /** Send every body exactly once (our client only; wrk cannot stop after N requests). */
  readonly once?: boolean;
  /** Open loop at this many requests/s in all (our WS client only), instead of `inFlight` per socket. */
  readonly rate?: number;
  /** wrk's per-request timeout in seconds (wrk's own default, 2 s, when unset); a request past it counts as a socket error. */
  readonly timeoutSeconds?: number;
}

export interface LoadResult {
  readonly client: string;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers with a JSON-RPC error (null: not counted); transport failures; non-2xx HTTP answers. */
  readonly rpcErrors: number | null;
  readonly socketErrors: number;
  readonly non2xx: number;
}

let wrkPresent: boolean | undefined;

/** BENCH_NO_WRK=1 takes the fallback path on purpose (to check it on a machine that has wrk). */
export function hasWrk(): boolean {
  wrkPresent ??= process.env.BENCH_NO_WRK !== '1' && spawnSync('wrk', ['--version']).error === undefined;
  return wrkPresent;
}

export function hasTaskset(): boolean {
  return spawnSync('taskset', ['--version']).error === undefined;
}

/** Sets the CPU affinity of every thread of a running process (`taskset -a -p -c`). */
export function pinProcess(pid: number, cpus: string): void {
  const result = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(pid)]);
  if (result.status !== 0) throw new Error(`taskset failed for pid ${pid}: ${String(result.stderr)}`);
}

/** Pins `pid` and its descendants alive now (every thread of each), for a node run by a wrapper. */
export function pinProcessTree(pid: number, cpus: string): void {
  for (const member of processTree(pid)) pinProcess(member, cpus);
}

function command(options: LoadOptions): { file: string; args: string[]; env: NodeJS.ProcessEnv; client: string } {
  const { transport, port, bodiesFile, seconds, connections } = options;
  if (transport === 'http' && hasWrk() && !options.once) {
    // One wrk thread when pinned: two threads on one core would only take turns.
    const threads = options.cpus === undefined ? 2 : 1;
    return {
      file: 'wrk',
      args: [
        '-t',
        String(threads),
        '-c',
        String(connections),
        '-d',
        `${seconds}s`,
        ...(options.timeoutSeconds === undefined ? [] : ['--timeout', `${options.timeoutSeconds}s`]),
        '-s',
        WRK_SCRIPT,
        `http://${options.host ?? '127.0.0.1'}:${port}/rpc`,
      ],
      env: { BENCH_BODIES: bodiesFile, BENCH_COUNT_ERRORS: options.countErrors ? '1' : '0' },
      client: 'wrk',
    };
  }
  const host = options.host ?? '127.0.0.1';
  const url = transport === 'ws' ? `ws://${host}:${port}/rpc-ws` : `http://${host}:${port}/rpc`;
  return {
    file: process.execPath,
    args: [
      '--import',
      'tsx',
      LOAD_CLIENT,
      transport,
      url,
      bodiesFile,
      String(seconds),
      String(connections),
      String(options.inFlight ?? 1),
      ...(options.once ? ['once'] : []),
      ...(options.rate === undefined ? [] : [`rate=${options.rate}`]),
    ],
    env: {},
    client: transport === 'ws' ? 'basalt ws client' : 'basalt http client',
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { file, args, env, client } = command(options);
  const [bin, argv] = options.cpus === undefined ? [file, args] : ['taskset', ['-c', options.cpus, file, ...args]];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += String(chunk)));
    child.stderr.on('data', (chunk) => (text += String(chunk)));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`${client} exited with ${code}:\n${text}`))));
  });
  const line = output.split('\n').find((l) => l.startsWith('BENCH '));
  if (line === undefined) throw new Error(`${client} printed no result:\n${output}`);
  const r = JSON.parse(line.slice(6)) as {
    requests: number;
    durationUs: number;
    p50Us: number;
    p99Us: number;
    socketErrors: number;
    non2xx: number;
    rpcErrors: number;
  };
  return {
    client,
    requests: r.requests,
    requestsPerSecond: r.requests / (r.durationUs / 1e6),
    p50Ms: r.p50Us / 1000,
    p99Ms: r.p99Us / 1000,
    rpcErrors: options.countErrors ? r.rpcErrors : null,
    socketErrors: r.socketErrors,
    non2xx: r.non2xx,
  };
}
