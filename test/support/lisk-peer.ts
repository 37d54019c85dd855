/**
 * The reference tools of the interop tests (test/interop/README.md), and lisk-peer among them: a
 * real lisk-sdk 6.1 node started in the background by the tool's start.sh (which returns once the
 * node's RPC answers) and stopped by its stop.sh, by the pid it recorded. One copy here so that
 * every interop test starts, questions and stops Lisk nodes the same way.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './node-process.js';

const run = promisify(execFile);

/** The tools' directory: BASALT_INTEROP_TOOLS (set by `npm run test:interop`), else the default of test/interop/README.md. */
export const INTEROP_TOOLS = resolve(ROOT, process.env.BASALT_INTEROP_TOOLS ?? join('..', 'shared', 'tools'));
export const LISK_PEER = join(INTEROP_TOOLS, 'lisk-peer');
export const liskPeerPresent = existsSync(join(LISK_PEER, 'start.sh'));

/** A port that is free right now on `host`. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export interface LiskNode {
  readonly name: string;
  readonly rpcPort: number;
  readonly pidFile: string;
  readonly logFile: string;
}

/**
 * The Lisk nodes of one test file, all under `scratch` (data dirs, logs, pid files). Every node
 * started is remembered, so that `stopAll` (in afterAll) stops whatever a failed test left.
 */
export class LiskNodes {
  private readonly running = new Set<string>();

  constructor(private readonly scratch: string) {}

  /**
   * Starts a node with start.sh and the tool's environment variables `env` (LISK_PEER_PROFILE,
   * LISK_PEER_P2P_HOST, ...); its RPC port is chosen here. The node ends by itself after 10 minutes.
   */
  async start(name: string, env: Record<string, string>): Promise<LiskNode> {
    const rpcPort = await freePort('127.0.0.1');
    const node = { name, rpcPort, pidFile: join(this.scratch, `${name}.pid`), logFile: join(this.scratch, `${name}.log`) };
    this.running.add(node.pidFile);
    await run(join(LISK_PEER, 'start.sh'), [], {
      timeout: 180_000,
      env: {
        ...process.env,
        LISK_PEER_DATA: join(this.scratch, `${name}-data`),
        LISK_PEER_LOGFILE: node.logFile,
        LISK_PEER_PIDFILE: node.pidFile,
        LISK_PEER_RPC_PORT: String(rpcPort),
        LISK_PEER_MAX_SECONDS: '600',
        ...env,
      },
    });
    return node;
  }

  /** Stops the node started with `pidFile` (a no-op once it is stopped). */
  async stop(node: Pick<LiskNode, 'pidFile'>): Promise<void> {
    this.running.delete(node.pidFile);
    if (!existsSync(node.pidFile)) return;
    await run(join(LISK_PEER, 'stop.sh'), [], { timeout: 30_000, env: { ...process.env, LISK_PEER_PIDFILE: node.pidFile } }).catch(
      () => undefined,
    );
  }

  async stopAll(): Promise<void> {
    for (const pidFile of [...this.running]) await this.stop({ pidFile });
  }
}

/** One JSON-RPC call to a Lisk node over HTTP; its result, or an Error naming the method. */
export async function liskRpc<T>(node: Pick<LiskNode, 'rpcPort'>, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${node.rpcPort}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: unknown };
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}
