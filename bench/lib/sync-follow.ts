/**
 * A fresh follower syncing a Basalt source over the Lisk P2P protocol (LIP 0014), timed. The
 * source is a data directory holding the dev chain fixture (420 small blocks) plus N full transfer
 * blocks forged on it by its own validators (lib/transfer-chain.ts), served by `basalt start`
 * without keys. A follower (Basalt, or lisk-sdk 6.1 through the reference tools' runner) starts
 * with an empty data directory and the source as its only seed. Its transfer blocks are timed
 * from its own chain_newBlock events (block 420 stored to the tip stored), so its start and the
 * 420 small fixture blocks stay out of the rates; the time from its spawn to the poll of
 * system_getNodeInfo that shows the source's tip is kept apart.
 *
 * The sync suite times followers in rounds and stops each one at the tip; the lisk suite keeps
 * one follower of each kind running afterwards and loads their RPC.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { rpc, startBasaltNode, stopProcess, type NodeProcess } from '../../test/support/node-process.js';
import { builtCli } from './built-cli.js';
import { DEV_CHAIN_DIR, DEV_CONFIG_FILE, DEV_GENESIS_FILE } from './dev-chain.js';
import type { Measurement } from './figure.js';
import { freePort } from './free-port.js';
import { startLiskNode, type LiskPeerTool } from './lisk-peer.js';
import { produceTransferBlocks } from './transfer-chain.js';

/** The dev chain fixture's tip: the transfer blocks start above it. */
export const FIXTURE_TIP = 420;
/** How often a follower's tip is read while it syncs. */
const POLL_MS = 20;
/** How long a follower at the tip may take to deliver the last chain_newBlock events. */
const EVENTS_GRACE_MS = 10_000;
/** A follower that has not reached the tip by then fails the suite. */
export const SYNC_TIMEOUT_MS = 600_000;

interface NodeInfo {
  readonly height: number;
  readonly lastBlockID: string;
}

/** What one follower's run gave. */
export interface SyncRun {
  /** From the process spawn to the poll that saw the source's tip. */
  readonly totalMs: number;
  /** The transfer part: from block FIXTURE_TIP stored to the tip stored. */
  readonly partMs: number;
}

export interface Source {
  /** Its P2P address, the followers' only seed. */
  readonly host: string;
  readonly tip: Block;
  /** Transactions in the transfer blocks. */
  readonly transactions: number;
  readonly p2pPort: number;
  readonly networkVersion: string;
}

/** The source node, serving the dev chain plus the forged blocks. */
export interface SourceNode {
  readonly source: Source;
  /** The forged transfer blocks, in height order. */
  readonly blocks: readonly Block[];
  readonly node: NodeProcess;
  readonly rpcPort: number;
}

/**
 * Forges `count` full transfer blocks into `work/source` and starts `basalt start` on it at
 * `host`, with no keys and no seed; resolves once it serves the forged tip. Progress lines start
 * with `label`.
 */
export async function startSource(
  work: string,
  count: number,
  host: string,
  label: string,
  progress: (line: string) => void,
): Promise<SourceNode> {
  progress(`${label}: forging ${count} full transfer blocks on the dev chain into the source's data directory`);
  const dataPath = join(work, 'source');
  const forged = await produceTransferBlocks(dataPath, loadChainConfig(DEV_CONFIG_FILE), count);
  const blocks = forged.map((bytes) => Block.fromBytes(bytes));
  const tip = blocks[blocks.length - 1]!;
  const transactions = blocks.reduce((n, b) => n + b.transactions.length, 0);

  const config = nodeConfig(join(work, 'source.json'), { host, seedPeers: [] });
  const node = startBasaltNode(basaltArgs(dataPath, config), {}, { cli: builtCli() });
  try {
    const ports = await node.ports();
    const served = await rpc<NodeInfo>(ports.rpc, 'system_getNodeInfo');
    if (served.lastBlockID !== tip.header.id.toString('hex'))
      throw new Error(`The source serves height ${served.height}, not the forged tip.`);
    const networkVersion = String((JSON.parse(readFileSync(config, 'utf8')) as { network: { version: string } }).network.version);
    const source: Source = { host, tip, transactions, p2pPort: ports.p2p!, networkVersion };
    progress(`${label}: source at ${host}:${source.p2pPort}, height ${tip.header.height}`);
    return { source, blocks, node, rpcPort: ports.rpc };
  } catch (error) {
    await stopProcess(node.child);
    throw error;
  }
}

/** The follower reached the tip, but not every event needed to time it came: no figure. */
export class MissedBlockEvents extends Error {}

/**
 * When each block was stored by a follower (ms after `startedAt`), from its own `chain_newBlock`
 * events over /rpc-ws: both Basalt and lisk-sdk publish the event as they save the block, and
 * write it to the socket at once, so the times hold even while the node is too busy to answer a
 * poll (lisk-sdk over its in-memory storage stand-in answers RPC only between the batches it
 * fetches: its block processing never waits for I/O).
 */
class StoredBlockTimes {
  readonly at = new Map<number, number>();
  private socket: WebSocket | undefined;
  private closed = false;

  constructor(private readonly startedAt: number) {}

  /** Subscribes as soon as `port` accepts a WebSocket (tried again every POLL_MS until then). */
  watch(port: number): void {
    if (this.closed) return;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/rpc-ws`, { perMessageDeflate: false });
    this.socket = socket;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) setTimeout(() => this.watch(port), POLL_MS);
    });
    socket.on('open', () =>
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'subscribe', params: { topics: ['chain_newBlock'] } })),
    );
    socket.on('message', (data: Buffer) => {
      const ms = performance.now() - this.startedAt;
      const event = JSON.parse(data.toString()) as { method?: string; params?: { blockHeader?: { height: number } } };
      const height = event.method === 'chain_newBlock' ? event.params?.blockHeader?.height : undefined;
      if (height !== undefined && !this.at.has(height)) this.at.set(height, ms);
    });
  }

  close(): void {
    this.closed = true;
    const socket = this.socket;
    this.socket = undefined;
    socket?.terminate();
  }
}

/**
 * Follows a follower from its spawn (`startedAt`) to the source's tip: polls `system_getNodeInfo`
 * until the tip is the source's (by ID), while `StoredBlockTimes` records when each block was
 * stored. `rpcPort` answers undefined until the node's port is known.
 */
async function followSync(
  startedAt: number,
  tip: Block,
  rpcPort: () => number | undefined,
  alive: () => string | undefined,
  log: () => string,
): Promise<SyncRun> {
  const tipID = tip.header.id.toString('hex');
  const stored = new StoredBlockTimes(startedAt);
  let watching = false;
  /** When a poll first showed the tip. */
  let totalMs: number | undefined;
  try {
    for (;;) {
      const port = rpcPort();
      if (port !== undefined && !watching) {
        stored.watch(port);
        watching = true;
      }
      const seen = port === undefined ? undefined : await nodeInfo(port).catch(() => undefined);
      const ms = performance.now() - startedAt;
      if (seen?.lastBlockID === tipID) {
        totalMs ??= ms;
        const from = stored.at.get(FIXTURE_TIP);
        const to = stored.at.get(tip.header.height);
        if (from !== undefined && to !== undefined) return { totalMs, partMs: to - from };
        // The node can show its new tip before the events of its last batch reach the socket
        // (lisk-sdk publishes them a little later): they carry their own times, so wait for them.
        if (ms - totalMs > EVENTS_GRACE_MS) {
          const heights = [...stored.at.keys()];
          const range = heights.length === 0 ? 'none' : `${Math.min(...heights)}-${Math.max(...heights)}`;
          throw new MissedBlockEvents(
            `The follower's chain_newBlock events missed height ${from === undefined ? FIXTURE_TIP : tip.header.height} (${heights.length} seen, heights ${range}).`,
          );
        }
      }
      const dead = alive();
      if (dead !== undefined) throw new Error(`The follower stopped before the tip:\n${dead.slice(-4000)}`);
      if (ms > SYNC_TIMEOUT_MS)
        throw new Error(
          `The follower did not reach the tip within ${SYNC_TIMEOUT_MS / 1000} s (last seen ${seen?.height}):\n${log().slice(-4000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    stored.close();
  }
}

/** system_getNodeInfo over HTTP, for Basalt and lisk-sdk alike (lisk-sdk wants a string id). */
async function nodeInfo(port: number): Promise<NodeInfo | undefined> {
  const response = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'system_getNodeInfo', params: {} }),
  });
  return ((await response.json()) as { result?: NodeInfo }).result;
}

/** The fixture's config with a `network` section of our own, written to `file`. */
function nodeConfig(file: string, network: Record<string, unknown>): string {
  const config = JSON.parse(readFileSync(DEV_CONFIG_FILE, 'utf8')) as { network: Record<string, unknown> };
  writeFileSync(file, JSON.stringify({ ...config, network: { ...config.network, ...network } }));
  return file;
}

function basaltArgs(dataPath: string, config: string): string[] {
  return ['--data-path', dataPath, '--config', config, '--genesis', DEV_GENESIS_FILE];
}

/** Who synced: the row name's head and tail ("<head> sync … <tail>"). */
export interface Follower {
  readonly head: string;
  readonly tail: string;
}

/** The run with the faster transfer part. */
export function faster(best: SyncRun | undefined, run: SyncRun): SyncRun {
  return best === undefined || run.partMs < best.partMs ? run : best;
}

/**
 * Rows of one follower: the transfer part (tx/s, blocks/s) and the whole chain from start (s),
 * each with the same row of `baseline` as its baseline.
 */
export function syncRows(who: Follower, run: SyncRun, source: Source, baseline?: Follower): Measurement[] {
  const tipHeight = source.tip.header.height;
  const count = tipHeight - FIXTURE_TIP;
  const total = source.transactions;
  const seconds = run.partMs / 1000;
  const names = (w: Follower) => ({
    tx: `${w.head}sync ${count} full transfer blocks, ${total} tx (after the ${FIXTURE_TIP} fixture blocks)${w.tail}`,
    blocks: `${w.head}sync ${count} full transfer blocks (after the ${FIXTURE_TIP} fixture blocks)${w.tail}`,
    whole: `${w.head}sync dev chain + ${count} transfer blocks (${tipHeight}), start to tip${w.tail}`,
  });
  const own = names(who);
  const ref = baseline === undefined ? undefined : names(baseline);
  return [
    { name: own.tx, value: total / seconds, unit: 'tx/s', baseline: ref?.tx },
    { name: own.blocks, value: count / seconds, unit: 'blocks/s', baseline: ref?.blocks },
    { name: own.whole, value: run.totalMs / 1000, unit: 's', baseline: ref?.whole },
  ];
}

/** A progress line for one follower's run. */
export function describeSync(label: string, run: SyncRun, source: Source): string {
  const tipHeight = source.tip.header.height;
  return `${label}: tip ${tipHeight} ${(run.totalMs / 1000).toFixed(2)} s after the start; blocks ${FIXTURE_TIP + 1}-${tipHeight} in ${(run.partMs / 1000).toFixed(3)} s`;
}

/** A follower that reached the source's tip and still runs. */
export interface SyncedFollower {
  readonly run: SyncRun;
  readonly rpcPort: number;
  /** The pid of the process tree's root (for pinning). */
  pid(): number;
  /** Everything it logged so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface BasaltFollowerOptions {
  readonly scratch: string;
  readonly source: Source;
  /** Its P2P address (its own: Lisk bans by IP). */
  readonly host: string;
  /** Merged into the config's `network` section (besides host and seed). */
  readonly network?: Record<string, unknown>;
}

/** A fresh Basalt follower seeded with the source, from its spawn to the source's tip. */
export async function syncBasaltFollower(options: BasaltFollowerOptions): Promise<SyncedFollower> {
  const { scratch, source } = options;
  mkdirSync(scratch, { recursive: true });
  const config = nodeConfig(join(scratch, 'config.json'), {
    ...options.network,
    host: options.host,
    seedPeers: [{ ip: source.host, port: source.p2pPort }],
  });
  const startedAt = performance.now();
  const node = startBasaltNode(basaltArgs(join(scratch, 'data'), config), {}, { cli: builtCli() });
  const stop = async (): Promise<void> => void (await stopProcess(node.child));
  try {
    let rpcPort: number | undefined;
    void node.ports().then(
      (ports) => (rpcPort = ports.rpc),
      () => undefined,
    );
    const run = await followSync(
      startedAt,
      source.tip,
      () => rpcPort,
      () => (node.child.exitCode === null ? undefined : node.output()),
      node.output,
    );
    return { run, rpcPort: rpcPort!, pid: () => node.child.pid!, log: node.output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface LiskFollowerOptions {
  readonly scratch: string;
  readonly tool: LiskPeerTool;
  readonly source: Source;
  /** Its P2P address (its own: Lisk bans by IP). */
  readonly host: string;
  /** How long it may run after the sync's time limit before the runner stops it (default 120 s). */
  readonly extraSeconds?: number;
}

/** A fresh lisk-sdk 6.1 follower (no keys) seeded with the source, from its start to the source's tip. */
export async function syncLiskFollower(options: LiskFollowerOptions): Promise<SyncedFollower> {
  const { scratch, source } = options;
  mkdirSync(scratch, { recursive: true });
  const rpcPort = await freePort('127.0.0.1');
  const startedAt = performance.now();
  const node = startLiskNode(options.tool, {
    scratch,
    rpcPort,
    maxSeconds: SYNC_TIMEOUT_MS / 1000 + (options.extraSeconds ?? 120),
    env: {
      LISK_PEER_PROFILE: 'oracle',
      LISK_PEER_ORACLE_DIR: DEV_CHAIN_DIR,
      LISK_PEER_FOLLOWER: '1',
      LISK_PEER_P2P_HOST: options.host,
      LISK_PEER_P2P_PORT: String(await freePort(options.host)),
      LISK_PEER_SEEDS: `${source.host}:${source.p2pPort}`,
      LISK_PEER_NETWORK_VERSION: source.networkVersion,
      LISK_PEER_LOG: 'info',
    },
  });
  let failed: string | undefined;
  node.started.catch((error: Error) => (failed = error.message));
  try {
    const run = await followSync(
      startedAt,
      source.tip,
      () => rpcPort,
      () => (failed === undefined ? undefined : `${failed}\n${node.log()}`),
      node.log,
    );
    return { run, rpcPort, pid: node.pid, log: node.log, stop: node.stop };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
