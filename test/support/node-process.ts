/**
 * What end-to-end tests need to drive a real `basalt start` process: a free port, the spawned
 * node with its captured output, JSON-RPC calls over HTTP and polling with a deadline. One copy
 * here so every e2e test starts, stops and questions a node the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The CLI entry, run from the TypeScript sources so a stale dist/ never matters. */
export const CLI_MAIN = join(ROOT, 'src/cli/main.ts');

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface NodeProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
}

/** Spawns `basalt start ARGS --log warn` (unless ARGS set --log) with its output captured. */
export function startBasaltNode(args: readonly string[], env: NodeJS.ProcessEnv = {}): NodeProcess {
  const logArgs = args.includes('--log') ? [] : ['--log', 'warn'];
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_MAIN, 'start', ...args, ...logArgs], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  return { child, output: () => output };
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
