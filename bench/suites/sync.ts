/**
 * Block synchronization over the Lisk P2P protocol (LIP 0014), node against node. A source data
 * directory holds the dev chain fixture (420 small blocks) plus N full transfer blocks forged on
 * it by its own validators (lib/transfer-chain.ts, stored through the chain processor); `basalt
 * start` serves it without keys. A fresh follower, seeded with the source only, then syncs the
 * whole chain from genesis: first a Basalt node, then, where the reference tools have lisk-sdk 6.1
 * installed, a lisk-sdk node (over the tools' in-memory JavaScript stand-in for lisk-db). The
 * transfer blocks are timed from the follower's own chain_newBlock events (block 420 stored to the
 * tip stored), so its start and the 420 small fixture blocks stay out of the rates; the time from
 * its spawn to the poll of system_getNodeInfo that shows the source's tip is reported apart. Then,
 * with the node pinned to one core, its RPC latency under a fixed load is measured with and
 * without 8 peers fetching blocks (lib/serving-load.ts). Each node and peer has its own loopback
 * address (Lisk bans by IP); every process started here is stopped here, by its pid.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { BLOCKS_PER_ANSWER } from '../../src/p2p/index.js';
import WebSocket from 'ws';
import { rpc, startBasaltNode, stopProcess, type NodeProcess } from '../../test/support/node-process.js';
import { DEV_CHAIN_DIR, DEV_CONFIG_FILE, DEV_GENESIS_FILE, readDevBlocks } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { freePort } from '../lib/free-port.js';
import { findLiskPeer, startLiskNode, type LiskPeerTool } from '../lib/lisk-peer.js';
import { hasTaskset } from '../lib/load-run.js';
import { measureServingUnderLoad } from '../lib/serving-load.js';
import type { Suite } from '../lib/suite.js';
import type { SyncPeersConfig } from '../lib/sync-peers.js';
import { produceTransferBlocks } from '../lib/transfer-chain.js';

/** The dev chain fixture's tip: the transfer blocks start above it. */
const FIXTURE_TIP = 420;
/** Loopback addresses of the nodes (one each: Lisk bans by IP). */
const HOSTS = {
  source: '127.0.0.50',
  basaltFollower: '127.0.0.51',
  liskFollower: '127.0.0.52',
  /** The 8 peers that ask for blocks while RPC is loaded. */
  servedPeers: Array.from({ length: 8 }, (_, i) => `127.0.0.${53 + i}`),
} as const;
/** How often a follower's tip is read while it syncs. */
const POLL_MS = 20;
/** Rounds of a full run (one with --quick). */
const ROUNDS = 2;
/** A follower that has not reached the tip by then fails the suite. */
const SYNC_TIMEOUT_MS = 600_000;

interface NodeInfo {
  readonly height: number;
  readonly lastBlockID: string;
}

/** What one follower's run gave. */
interface SyncRun {
  /** From the process spawn to the poll that saw the source's tip. */
  readonly totalMs: number;
  /** The transfer part: from block FIXTURE_TIP stored to the tip stored. */
  readonly partMs: number;
}

interface Source {
  readonly tip: Block;
  /** Transactions in the transfer blocks. */
  readonly transactions: number;
  readonly p2pPort: number;
  readonly networkVersion: string;
}

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
): Promise<SyncRun> {
  const tipID = tip.header.id.toString('hex');
  const stored = new StoredBlockTimes(startedAt);
  let watching = false;
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
        const from = stored.at.get(FIXTURE_TIP);
        const to = stored.at.get(tip.header.height);
        if (from === undefined || to === undefined)
          throw new Error(`The follower's chain_newBlock events missed height ${from === undefined ? FIXTURE_TIP : tip.header.height}.`);
        return { totalMs: ms, partMs: to - from };
      }
      const dead = alive();
      if (dead !== undefined) throw new Error(`The follower stopped before the tip:\n${dead.slice(-4000)}`);
      if (ms > SYNC_TIMEOUT_MS)
        throw new Error(`The follower did not reach the tip within ${SYNC_TIMEOUT_MS / 1000} s (last seen ${seen?.height}).`);
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

/**
 * IDs of every 103rd block from genesis below the tip, where a syncing node's successive
 * getBlocksFromId requests start: the fixture's, then the forged ones'.
 */
function batchStarts(forged: readonly Block[]): string[] {
  const ids = new Map<number, string>();
  for (const { height, bytes } of readDevBlocks()) ids.set(height, Block.fromBytes(bytes).header.id.toString('hex'));
  for (const block of forged) ids.set(block.header.height, block.header.id.toString('hex'));
  const starts: string[] = [];
  for (let height = 0; height < forged[forged.length - 1]!.header.height; height += BLOCKS_PER_ANSWER) starts.push(ids.get(height)!);
  return starts;
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

/** A fresh Basalt follower seeded with the source, from its spawn to the source's tip. */
async function basaltFollower(scratch: string, source: Source): Promise<SyncRun> {
  mkdirSync(scratch, { recursive: true });
  const config = nodeConfig(join(scratch, 'config.json'), {
    host: HOSTS.basaltFollower,
    seedPeers: [{ ip: HOSTS.source, port: source.p2pPort }],
  });
  const startedAt = performance.now();
  const node = startBasaltNode(basaltArgs(join(scratch, 'data'), config));
  try {
    let rpcPort: number | undefined;
    void node.ports().then(
      (ports) => (rpcPort = ports.rpc),
      () => undefined,
    );
    return await followSync(
      startedAt,
      source.tip,
      () => rpcPort,
      () => (node.child.exitCode === null ? undefined : node.output()),
    );
  } finally {
    await stopProcess(node.child);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A fresh lisk-sdk 6.1 follower (no keys) seeded with the source, from its start to the source's tip. */
async function liskFollower(scratch: string, tool: LiskPeerTool, source: Source): Promise<SyncRun> {
  mkdirSync(scratch, { recursive: true });
  const rpcPort = await freePort('127.0.0.1');
  const startedAt = performance.now();
  const node = startLiskNode(tool, {
    scratch,
    rpcPort,
    maxSeconds: SYNC_TIMEOUT_MS / 1000 + 120,
    env: {
      LISK_PEER_PROFILE: 'oracle',
      LISK_PEER_ORACLE_DIR: DEV_CHAIN_DIR,
      LISK_PEER_FOLLOWER: '1',
      LISK_PEER_P2P_HOST: HOSTS.liskFollower,
      LISK_PEER_P2P_PORT: String(await freePort(HOSTS.liskFollower)),
      LISK_PEER_SEEDS: `${HOSTS.source}:${source.p2pPort}`,
      LISK_PEER_NETWORK_VERSION: source.networkVersion,
      LISK_PEER_LOG: 'info',
    },
  });
  let failed: string | undefined;
  node.started.catch((error: Error) => (failed = error.message));
  try {
    return await followSync(
      startedAt,
      source.tip,
      () => rpcPort,
      () => (failed === undefined ? undefined : `${failed}\n${node.log()}`),
    );
  } finally {
    await node.stop();
  }
}

/** The run with the faster transfer part. */
function faster(best: SyncRun | undefined, run: SyncRun): SyncRun {
  return best === undefined || run.partMs < best.partMs ? run : best;
}

/** Who synced: the row name's head and tail ("<head> sync … <tail>"). */
interface Follower {
  readonly head: string;
  readonly tail: string;
}

const BASALT: Follower = { head: '', tail: ', Basalt from Basalt' };
const LISK: Follower = { head: 'lisk-sdk 6.1 (JS storage stand-in) ', tail: ', from Basalt' };

/** Rows of one follower: the transfer part (tx/s, blocks/s) and the whole chain from start (s). */
function rows(who: Follower, run: SyncRun, source: Source, baseline?: Follower): Measurement[] {
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

function describeRun(who: string, run: SyncRun, source: Source): string {
  const tipHeight = source.tip.header.height;
  return `sync, ${who}: tip ${tipHeight} ${(run.totalMs / 1000).toFixed(2)} s after the start; blocks ${FIXTURE_TIP + 1}-${tipHeight} in ${(run.partMs / 1000).toFixed(3)} s`;
}

export const syncSuite: Suite = {
  name: 'sync',
  summary: 'a fresh node syncing the dev chain plus full transfer blocks from `basalt start` over P2P; lisk-sdk 6.1 beside it',
  async run(progress, options) {
    const count = options.quick ? 12 : 60;
    const chainConfig = loadChainConfig(DEV_CONFIG_FILE);
    const tool = findLiskPeer();
    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-sync-'));
    let sourceNode: NodeProcess | undefined;
    try {
      progress(`sync: forging ${count} full transfer blocks on the dev chain into the source's data directory`);
      const blocks = (await produceTransferBlocks(join(work, 'source'), chainConfig, count)).map((bytes) => Block.fromBytes(bytes));
      const tip = blocks[blocks.length - 1]!;
      const transactions = blocks.reduce((n, b) => n + b.transactions.length, 0);

      const sourceConfig = nodeConfig(join(work, 'source.json'), { host: HOSTS.source, seedPeers: [] });
      sourceNode = startBasaltNode(basaltArgs(join(work, 'source'), sourceConfig));
      const ports = await sourceNode.ports();
      const served = await rpc<NodeInfo>(ports.rpc, 'system_getNodeInfo');
      if (served.lastBlockID !== tip.header.id.toString('hex'))
        throw new Error(`The source serves height ${served.height}, not the forged tip.`);
      const networkVersion = String((JSON.parse(readFileSync(sourceConfig, 'utf8')) as { network: { version: string } }).network.version);
      const source: Source = { tip, transactions, p2pPort: ports.p2p!, networkVersion };
      progress(`sync: source at ${HOSTS.source}:${source.p2pPort}, height ${tip.header.height}`);

      if ('missing' in tool) progress(`sync: lisk-sdk rows skipped: ${tool.missing}; the Basalt rows have no baseline`);
      else progress(`sync: lisk-sdk ${tool.version} followers too (over the JS storage stand-in for lisk-db), from the same source`);
      // Interleaved rounds (Basalt, lisk-sdk, Basalt, …), each follower keeping its best, so a
      // busy neighbour slows a round rather than one contender.
      let basalt: SyncRun | undefined;
      let lisk: SyncRun | undefined;
      for (let round = 1; round <= (options.quick ? 1 : ROUNDS); round++) {
        const ours = await basaltFollower(join(work, `basalt-follower-${round}`), source);
        progress(describeRun(`Basalt from Basalt, round ${round}`, ours, source));
        basalt = faster(basalt, ours);
        if ('missing' in tool) continue;
        const theirs = await liskFollower(join(work, `lisk-follower-${round}`), tool, source);
        progress(describeRun(`lisk-sdk from Basalt, round ${round}`, theirs, source));
        lisk = faster(lisk, theirs);
      }
      const results =
        lisk === undefined ? rows(BASALT, basalt!, source) : [...rows(BASALT, basalt!, source, LISK), ...rows(LISK, lisk, source)];
      if (!hasTaskset()) {
        progress('sync serving: skipped, taskset not found (the node must have a core of its own)');
        return results;
      }
      const peers: SyncPeersConfig = {
        source: { ip: HOSTS.source, port: source.p2pPort },
        hosts: HOSTS.servedPeers,
        chainID: chainConfig.genesis.chainID.toString('hex'),
        networkVersion,
        tip: {
          height: tip.header.height,
          maxHeightPrevoted: tip.header.maxHeightPrevoted,
          blockVersion: tip.header.version,
          lastBlockID: tip.header.id.toString('hex'),
        },
        fromIds: batchStarts(blocks),
      };
      const node = { pid: sourceNode.child.pid!, rpcPort: ports.rpc };
      return [...results, ...(await measureServingUnderLoad({ work, node, peers, quick: options.quick, progress }))];
    } finally {
      if (sourceNode) await stopProcess(sourceNode.child);
      rmSync(work, { recursive: true, force: true });
    }
  },
};
