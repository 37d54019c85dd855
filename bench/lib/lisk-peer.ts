/**
 * A lisk-sdk 6.1 node for side-by-side runs, through the reference tools' `lisk-peer` runner: the
 * npm package lisk-sdk@6.1.0 (Lisk's own framework, engine and modules) over a pure-JavaScript,
 * in-memory stand-in for its native storage addon (@liskhq/lisk-db), which cannot be built here.
 * The tools are looked up where `npm run test:interop` looks (BASALT_INTEROP_TOOLS, or its
 * default); lisk-sdk must already be installed in the runner's app folder (LISK_PEER_APP,
 * /tmp/lisk-peer by default): a benchmark does not run npm install.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface LiskPeerTool {
  /** The folder holding start.sh and stop.sh. */
  readonly dir: string;
  /** lisk-sdk's version as installed (6.1.x). */
  readonly version: string;
}

/** The runner and its lisk-sdk 6.1 install, or why they cannot be used. */
export function findLiskPeer(): LiskPeerTool | { readonly missing: string } {
  const tools = resolve(ROOT, process.env.BASALT_INTEROP_TOOLS ?? join('..', 'shared', 'tools'));
  const dir = join(tools, 'lisk-peer');
  if (!existsSync(join(dir, 'start.sh'))) return { missing: `no lisk-peer runner in ${tools} (set BASALT_INTEROP_TOOLS)` };
  const app = process.env.LISK_PEER_APP ?? '/tmp/lisk-peer';
  const manifest = join(app, 'node_modules', 'lisk-sdk', 'package.json');
  if (!existsSync(manifest)) return { missing: `lisk-sdk is not installed in ${app} (the runner's start.sh installs it)` };
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  if (!version.startsWith('6.1.')) return { missing: `${app} holds lisk-sdk ${version}, not 6.1` };
  return { dir, version };
}

export interface LiskNode {
  readonly rpcPort: number;
  /** Resolves once start.sh has seen the RPC answer; rejects if start.sh failed. */
  readonly started: Promise<void>;
  /** The node's log so far. */
  log(): string;
  /** The pid start.sh recorded: the root of the node's process tree (the runner's `timeout`). */
  pid(): number;
  /** Stops the node by the pid start.sh recorded (stop.sh), within about 20 s. */
  stop(): Promise<void>;
}

export interface LiskNodeOptions {
  /** Scratch folder for this node's data dir, log and pid file. */
  readonly scratch: string;
  readonly rpcPort: number;
  /** The runner's LISK_PEER_* settings (profile, P2P host and port, seeds, …). */
  readonly env: Readonly<Record<string, string>>;
  /** Hard stop after this long, whatever happens. */
  readonly maxSeconds: number;
}

/**
 * Starts a node with the runner's start.sh, which returns once the RPC answers; the caller can
 * watch the node meanwhile (a follower may sync before that).
 */
export function startLiskNode(tool: LiskPeerTool, options: LiskNodeOptions): LiskNode {
  const { scratch, rpcPort } = options;
  const env = {
    ...process.env,
    LISK_PEER_DATA: join(scratch, 'data'),
    LISK_PEER_LOGFILE: join(scratch, 'node.log'),
    LISK_PEER_PIDFILE: join(scratch, 'node.pid'),
    LISK_PEER_RPC_PORT: String(rpcPort),
    LISK_PEER_MAX_SECONDS: String(options.maxSeconds),
    ...options.env,
  };
  const starter = spawn(join(tool.dir, 'start.sh'), [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  starter.stdout.on('data', (chunk) => (output += String(chunk)));
  starter.stderr.on('data', (chunk) => (output += String(chunk)));
  const started = new Promise<void>((done, fail) => {
    starter.once('error', fail);
    starter.once('exit', (code) => (code === 0 ? done() : fail(new Error(`lisk-peer start.sh exited with ${code}:\n${output}`))));
  });
  started.catch(() => undefined);
  const log = (): string => {
    try {
      return readFileSync(env.LISK_PEER_LOGFILE, 'utf8');
    } catch {
      return output;
    }
  };
  const stop = async (): Promise<void> => {
    await started.catch(() => undefined);
    await new Promise<void>((done) => {
      execFile(join(tool.dir, 'stop.sh'), [], { env, timeout: 30_000 }, () => done());
    });
  };
  const pid = (): number => Number(readFileSync(env.LISK_PEER_PIDFILE, 'utf8').trim());
  return { rpcPort, started, log, pid, stop };
}
