/**
 * The servers of the RPC load runs, each its own process so it can be pinned: a Basalt node on
 * the dev chain fixture (replayed into a temporary data directory with `basalt
 * blockchain:replay`, then `basalt start` with the fixture's config, which holds no generator
 * keys: the chain stays at height 420 and no block production disturbs the runs), and the
 * plain uWebSockets.js ceiling (ceiling-server.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBasaltNode } from '../../test/support/node-process.js';
import { builtCli } from './built-cli.js';
import { DEV_BLOCKS_FILE, DEV_CONFIG_FILE, DEV_GENESIS_FILE } from './dev-chain.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI_MAIN = `${ROOT}src/cli/main.ts`;
const CEILING_SERVER = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url));

export interface Server {
  readonly port: number;
  readonly pid: number;
  /** Milliseconds from the spawn to the first answer that showed it ready. */
  readonly readyAfterMs: number;
  stop(): Promise<void>;
}

/**
 * How often a starting server is asked whether it is ready. Short, because the runs of the first
 * seconds after start begin at that answer: a long interval would let the server warm up unseen.
 */
const READY_POLL_MS = 10;

/** Replays the dev chain (420 blocks) into `dataPath`; a few seconds. */
export function replayDevChain(dataPath: string): void {
  const args = [
    '--import',
    'tsx',
    CLI_MAIN,
    'blockchain:replay',
    DEV_BLOCKS_FILE,
    '--genesis',
    DEV_GENESIS_FILE,
    '--config',
    DEV_CONFIG_FILE,
    '--data-path',
    dataPath,
  ];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`blockchain:replay failed (${result.status}):\n${result.stderr}`);
}

/** JSON-RPC over HTTP; the raw answer text. */
export async function rpcText(port: number, method: string, params?: unknown): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return response.text();
}

/**
 * Waits until `child` (which bound a port it chose itself: no port is picked in advance) reports
 * its port through `portOf` and `ready` holds for it.
 */
function serverWhenReady(
  child: ChildProcess,
  output: () => string,
  portOf: () => Promise<number | undefined>,
  ready: (port: number) => Promise<boolean>,
): Promise<Server> {
  const spawned = performance.now();
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async (): Promise<void> => {
      if (child.exitCode !== null) return reject(new Error(`Server exited (${child.exitCode}):\n${output()}`));
      const port = await portOf().catch(() => undefined);
      if (port !== undefined && (await ready(port).catch(() => false))) {
        return resolve({ port, pid: child.pid!, readyAfterMs: performance.now() - spawned, stop: () => stopChild(child) });
      }
      if (Date.now() > deadline) {
        await stopChild(child);
        return reject(new Error(`Server not ready within 60 s:\n${output()}`));
      }
      setTimeout(() => void poll(), READY_POLL_MS);
    };
    void poll();
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/**
 * `basalt start` on a data directory holding the replayed dev chain (and, when `tipHeight` says
 * so, blocks forged on top of it); resolves once it answers at that tip.
 */
export function startDevChainNode(dataPath: string, tipHeight = 420): Promise<Server> {
  // RPC port 0: the node binds a free port and logs it ("Node started").
  const node = startBasaltNode(
    ['--data-path', dataPath, '--config', DEV_CONFIG_FILE, '--genesis', DEV_GENESIS_FILE],
    {},
    { cli: builtCli() },
  );
  return serverWhenReady(
    node.child,
    node.output,
    async () => (await node.ports(1_000)).rpc,
    async (port) => (await rpcText(port, 'system_getNodeInfo')).includes(`"height":${tipHeight},`),
  );
}

/** The uWS ceiling, answering each method with `answers[method]` (see ceiling-server.ts). */
export function startCeiling(answersFile: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', CEILING_SERVER, '0', answersFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const portOf = async (): Promise<number | undefined> => {
    const port = /^ready (\d+)$/m.exec(output)?.[1];
    return port === undefined ? undefined : Number(port);
  };
  return serverWhenReady(
    child,
    () => output,
    portOf,
    async (port) => (await rpcText(port, 'chain_getLastBlock')).includes('"result"'),
  );
}
