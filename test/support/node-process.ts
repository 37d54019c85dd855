/**
 * What end-to-end tests need to drive a real `basalt start` process: the spawned node with its
 * captured output and the ports it bound, JSON-RPC calls over HTTP and polling with a deadline.
 * One copy here so every e2e test starts, stops and questions a node the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withFileSizeLimit } from './cli.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The CLI entry, run from the TypeScript sources so a stale dist/ never matters. */
export const CLI_MAIN = join(ROOT, 'src/cli/main.ts');

/** The ports a started node bound (it was given port 0: the OS chose them). */
export interface NodePorts {
  readonly rpc: number;
  /** When the legacy forging API is enabled. */
  readonly legacyApi?: number;
  /** The P2P port, when the node joined its network. */
  readonly p2p?: number;
  /** The `GET /metrics` port, when metrics are enabled. */
  readonly metrics?: number;
}

export interface NodeProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /**
   * The ports the node bound, read from its log: the "Node started" record (which comes after
   * every listener is up) and "Legacy forging API listening". Rejects if the process exits
   * first, or after `timeoutMs`.
   */
  ports(timeoutMs?: number): Promise<NodePorts>;
}

/** Calls `onRecord` with every JSON log line of `stream`. */
function onLogRecords(stream: NodeJS.ReadableStream | null, onRecord: (record: Record<string, unknown>) => void): void {
  let pending = '';
  stream?.on('data', (chunk) => {
    const lines = (pending + String(chunk)).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        onRecord(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not a log record.
      }
    }
  });
}

/** How a node is spawned, beyond its arguments and environment. */
export interface StartOptions {
  /** The largest file the node may write, in KiB (`withFileSizeLimit` in test/support/cli.ts). */
  readonly fileSizeKiB?: number;
  /** The CLI entry to run: the TypeScript sources through tsx (CLI_MAIN) unless a built `.js` is given. */
  readonly cli?: string;
}

/**
 * Spawns `basalt start ARGS` with its output captured. Unless ARGS set them, the RPC port is 0
 * (the node binds a free one and logs it: see `ports()`, no port is picked in advance, so two
 * tests never race for one) and the log level is info (the level of the records `ports()` reads).
 */
export function startBasaltNode(args: readonly string[], env: NodeJS.ProcessEnv = {}, options: StartOptions = {}): NodeProcess {
  const defaults = [
    ...(args.includes('--api-port') ? [] : ['--api-port', '0']),
    ...(args.includes('--port') || args.includes('-p') ? [] : ['--port', '0']),
    ...(args.includes('--log') ? [] : ['--log', 'info']),
  ];
  const cli = options.cli ?? CLI_MAIN;
  const loader = cli.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const command = [process.execPath, ...loader, cli, 'start', ...args, ...defaults];
  const [file, ...argv] = withFileSizeLimit(command, options.fileSizeKiB);
  const child = spawn(file as string, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  let legacyApi: number | undefined;
  const started = new Promise<NodePorts>((resolve, reject) => {
    onLogRecords(child.stdout, (record) => {
      if (record.msg === 'Legacy forging API listening') legacyApi = Number(record.port);
      if (record.msg === 'Node started') {
        // "host:port"; the host may be an IPv6 address, the port is after the last colon.
        const portOf = (address: unknown): number => Number(String(address).split(':').pop());
        const rpc = portOf(record.rpc);
        const p2p = record.p2p === undefined ? undefined : portOf(record.p2p);
        const metrics = record.metrics === undefined ? undefined : portOf(record.metrics);
        resolve({
          rpc,
          ...(legacyApi === undefined ? {} : { legacyApi }),
          ...(p2p === undefined ? {} : { p2p }),
          ...(metrics === undefined ? {} : { metrics }),
        });
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`basalt start ended (${signal ?? code}) before it started:\n${output}`)));
  });
  // A node killed on purpose before it started is no error unless a test asks for its ports.
  started.catch(() => undefined);
  const ports = (timeoutMs = 120_000): Promise<NodePorts> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`basalt start did not log "Node started" within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    });
    return Promise.race([started, timeout]).finally(() => clearTimeout(timer));
  };
  return { child, output: () => output, ports };
}

/** Sends `signal` (a clean shutdown by default) and resolves with the exit code. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

export interface JsonRpcAnswer<T = unknown> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC request over HTTP POST /rpc; the whole answer, errors included. */
export async function rpcAnswer<T = unknown>(port: number, method: string, params?: unknown): Promise<JsonRpcAnswer<T>> {
  const response = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as JsonRpcAnswer<T>;
}

/** One JSON-RPC request over HTTP POST /rpc; its result, or an Error naming the method. */
export async function rpc<T>(port: number, method: string, params?: unknown): Promise<T> {
  const answer = await rpcAnswer<T>(port, method, params);
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

export interface WaitOptions {
  readonly intervalMs?: number;
  /** Output appended to the timeout error (e.g. the node's log), to see why it never happened. */
  readonly output?: () => string;
}

/**
 * Polls `probe` until it returns a value (undefined means "not yet"; a throw counts as not yet
 * and its message is kept for the timeout error).
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  options: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
  const reason = lastError ? `: ${(lastError as Error).message}` : '';
  throw new Error(`Timed out waiting for ${what}${reason}${options.output ? `\n${options.output()}` : ''}`);
}

/** Waits until the node's tip reaches `height`; resolves with the tip height seen. */
export function waitForHeight(port: number, height: number, timeoutMs: number, options: WaitOptions = {}): Promise<number> {
  return waitFor(
    `height ${height}`,
    async () => {
      const tip = (await rpc<{ height: number }>(port, 'system_getNodeInfo')).height;
      return tip >= height ? tip : undefined;
    },
    timeoutMs,
    options,
  );
}
