/**
 * Running `basalt start` nodes on the Lisk P2P network, against each other and against real
 * lisk-sdk 6.1 nodes (the reference tools' lisk-peer): whole chains move from node to node by
 * synchronization, and new blocks by gossip, with the same block IDs and state roots on both sides.
 * Runs only where the reference tools are checked out next to the repository; elsewhere every test
 * is skipped. `npx vitest run test/interop/node-sync.test.ts`.
 *
 * d1. the dev fixture chain (420 blocks, nobody extends it) from a Basalt node to a fresh one;
 * d2. the same chain from a Basalt node to a fresh lisk-sdk node;
 * d3. the same chain from a lisk-sdk node to a fresh Basalt node;
 * a.  a fresh Basalt node follows a lisk-sdk node that generates every block;
 * b.  a fresh lisk-sdk node follows a Basalt node that generates every block.
 *
 * All nodes run the dev fixture's genesis block and config (chain 04000000, 3 s blocks, 103
 * validators: the keys of lisk-sdk v6.1.0 examples/pos-mainchain dev-validators.json). Each node
 * has its own loopback address (Lisk bans by IP) and each case its own directories; everything
 * started here is stopped here, by pid, within bounded time.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { runBasalt } from '../support/cli.js';
import { DEV_CHAIN_DIR, devBlockLines, devFinalState, devReplayArgs } from '../support/dev-chain.js';
import { freePort, INTEROP_TOOLS, LISK_PEER, type LiskNode, LiskNodes, liskPeerPresent, liskRpc } from '../support/lisk-peer.js';
import { type NodeProcess, rpc, startBasaltNode, stopProcess, waitFor } from '../support/node-process.js';
import { devChain, encodePostBlock, serveChain } from '../unit/p2p/support/memory-chain.js';

if (!liskPeerPresent) {
  process.stdout.write(`node sync interop tests skipped: no lisk-peer in ${INTEROP_TOOLS}\n`);
}

/** The keys of all 103 dev-chain validators, in the format both Lisk and Basalt read from `generator.keys.fromFile`. */
const DEV_VALIDATORS = join(LISK_PEER, 'devnet-mainchain', 'dev-validators.json');
const TIP = devFinalState().tip;
const FIXTURE_IDS = new Map(devBlockLines().map((line) => [line.height, line.id]));
/** Heights checked block by block on a synced copy of the fixture chain: round ends, and the tip. */
const CHECKED_HEIGHTS = [1, 2, 69, 103, 206, 309, 412, 419, 420];

const scratch = mkdtempSync(join(tmpdir(), 'basalt-node-sync-'));
const liskNodes = new LiskNodes(scratch);
const basaltProcesses = new Set<NodeProcess>();
const NO_KEYS = join(scratch, 'no-keys.json');
writeFileSync(NO_KEYS, JSON.stringify({ keys: [] }));

afterAll(async () => {
  await Promise.all([...basaltProcesses].map((process) => stopBasalt({ process })));
  await liskNodes.stopAll();
  rmSync(scratch, { recursive: true, force: true });
}, 120_000);

/** A JSON-RPC caller of one node, Basalt or Lisk. */
type Rpc = <T>(method: string, params?: Record<string, unknown>) => Promise<T>;

interface NodeInfo {
  height: number;
  lastBlockID: string;
  syncing: boolean;
}

interface HeaderJson {
  id: string;
  height: number;
  stateRoot: string;
  eventRoot: string;
}

interface BasaltNode {
  readonly process: NodeProcess;
  readonly call: Rpc;
  /** `ip:port` of its P2P server, for the seed list of another node. */
  readonly address: string;
}

interface BasaltStart {
  /** Default: a fresh data directory. */
  readonly dataPath?: string;
  readonly seeds?: readonly string[];
  /** Generator keys file; default none (the node never generates). */
  readonly keys?: string;
}

/**
 * `basalt start` on the dev fixture's genesis block and config, with P2P on `host` (any free
 * port, read back from the log) and the network version of the Lisk nodes.
 */
async function startBasalt(name: string, host: string, options: BasaltStart = {}): Promise<BasaltNode> {
  const config = JSON.parse(readFileSync(join(DEV_CHAIN_DIR, 'config.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  config.genesis!.block = { fromFile: join(DEV_CHAIN_DIR, 'genesis_block.blob') };
  config.network = {
    version: '1.0',
    host,
    port: 0,
    seedPeers: (options.seeds ?? []).map((seed) => ({ ip: seed.split(':')[0], port: Number(seed.split(':')[1]) })),
  };
  config.generator = { keys: { fromFile: options.keys ?? NO_KEYS } };
  const configFile = join(scratch, `${name}.json`);
  writeFileSync(configFile, JSON.stringify(config));
  const dataPath = options.dataPath ?? join(scratch, `${name}-data`);
  const process = startBasaltNode(['--data-path', dataPath, '--config', configFile]);
  basaltProcesses.add(process);
  const ports = await process.ports();
  return { process, call: (method, params) => rpc(ports.rpc, method, params), address: `${host}:${ports.p2p}` };
}

/** SIGINT, then SIGKILL if the node has not ended within 30 s. */
async function stopBasalt(node: Pick<BasaltNode, 'process'>): Promise<void> {
  basaltProcesses.delete(node.process);
  const { child } = node.process;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), 30_000);
  });
  if ((await Promise.race([stopProcess(child), late])) === 'late') child.kill('SIGKILL');
  clearTimeout(timer);
}

function liskCaller(node: LiskNode): Rpc {
  return (method, params) => liskRpc(node, method, params);
}

/** A lisk-sdk 6.1 node on the dev fixture chain with P2P on `host` (its port is chosen here). */
async function startLisk(name: string, host: string, env: Record<string, string>): Promise<{ node: LiskNode; call: Rpc; address: string }> {
  const port = await freePort(host);
  const node = await liskNodes.start(name, {
    LISK_PEER_PROFILE: 'oracle',
    LISK_PEER_ORACLE_DIR: DEV_CHAIN_DIR,
    LISK_PEER_P2P_HOST: host,
    LISK_PEER_P2P_PORT: String(port),
    ...env,
  });
  return { node, call: liskCaller(node), address: `${host}:${port}` };
}

/** A fresh Basalt node without keys, seeded with `seed` only: runs `check` on it, then stops it. */
async function withBasaltFollower(name: string, host: string, seed: string, check: (node: BasaltNode) => Promise<void>): Promise<void> {
  const follower = await startBasalt(name, host, { seeds: [seed] });
  try {
    await check(follower);
  } finally {
    await stopBasalt(follower);
  }
}

/**
 * A lisk-sdk follower (no keys) seeded with `seed` only: runs `check` on it, then checks that it
 * banned nobody (a Lisk node bans a peer that sends it anything invalid), and stops it.
 */
async function withLiskFollower(name: string, host: string, seed: string, check: (lisk: Rpc) => Promise<void>): Promise<void> {
  const lisk = await startLisk(name, host, { LISK_PEER_FOLLOWER: '1', LISK_PEER_SEEDS: seed });
  try {
    await check(lisk.call);
    expect((await lisk.call<{ banning: unknown }>('network_getStats')).banning).toEqual({ count: 0, bannedPeers: {} });
  } finally {
    await liskNodes.stop(lisk.node);
  }
}

/** `basalt blockchain:replay` of the whole fixture chain, once per file; each case gets its own copy. */
let replayed: Promise<string> | undefined;
async function replayedDevChain(copyTo: string): Promise<string> {
  replayed ??= (async () => {
    const dataPath = join(scratch, 'replayed-dev-chain');
    const result = await runBasalt(devReplayArgs(dataPath));
    if (result.code !== 0) throw new Error(`blockchain:replay failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
    return dataPath;
  })();
  cpSync(await replayed, copyTo, { recursive: true });
  return copyTo;
}

/** Polls a node's system_getNodeInfo until `accept` holds. */
function waitForInfo(what: string, call: Rpc, accept: (info: NodeInfo) => boolean, timeoutMs: number, output?: () => string) {
  return waitFor(
    what,
    async () => {
      const info = await call<NodeInfo>('system_getNodeInfo');
      return accept(info) ? info : undefined;
    },
    timeoutMs,
    { intervalMs: 500, output },
  );
}

async function headerAt(call: Rpc, height: number): Promise<HeaderJson> {
  return (await call<{ header: HeaderJson }>('chain_getBlockByHeight', { height })).header;
}

const summary = ({ id, height, stateRoot, eventRoot }: HeaderJson) => ({ height, id, stateRoot, eventRoot });

/** Both nodes hold the same block (ID, state root, event root) at every height of `heights`. */
async function expectSameBlocks(a: Rpc, b: Rpc, heights: readonly number[]): Promise<void> {
  for (const height of heights) {
    const [left, right] = await Promise.all([headerAt(a, height), headerAt(b, height)]);
    expect(summary(left)).toEqual(summary(right));
  }
}

/** The node holds the fixture chain: its block IDs at the checked heights, and the tip's state root. */
async function expectFixtureChain(call: Rpc): Promise<void> {
  for (const height of CHECKED_HEIGHTS)
    expect({ height, id: (await headerAt(call, height)).id }).toEqual({ height, id: FIXTURE_IDS.get(height) });
  expect((await headerAt(call, TIP.height)).stateRoot).toBe(TIP.stateRoot);
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** `node` synchronizes the whole fixture chain, and holds the same blocks as `source`. */
async function expectSyncedFixtureChain(what: string, node: Rpc, source: Rpc, output?: () => string): Promise<void> {
  const info = await waitForInfo(`${what} at the fixture tip`, node, (i) => i.lastBlockID === TIP.id && !i.syncing, 150_000, output);
  expect(info.height).toBe(TIP.height);
  await expectFixtureChain(node);
  await expectSameBlocks(node, source, CHECKED_HEIGHTS);
}

/**
 * `node` gets onto the chain `generator` makes (its tip at height 3 or more is a block of that
 * chain), then follows three more blocks: at every height both hold the same block.
 */
async function expectFollows(what: string, node: Rpc, generator: Rpc, output?: () => string): Promise<void> {
  const options = { intervalMs: 500, output };
  const synced = await waitFor(
    `${what} on the generator's chain`,
    async () => {
      const info = await node<NodeInfo>('system_getNodeInfo');
      if (info.height < 3) return undefined;
      return (await headerAt(generator, info.height)).id === info.lastBlockID ? info : undefined;
    },
    90_000,
    options,
  );
  const followed = await waitForInfo(`three more blocks on ${what}`, node, (i) => i.height >= synced.height + 3, 60_000, output);
  expect(followed.syncing).toBe(false);
  await expectSameBlocks(node, generator, range(1, followed.height));
}

describe.skipIf(!liskPeerPresent)('nodes on the Lisk P2P network: Basalt and lisk-sdk 6.1 sync and follow each other', () => {
  it('(d1) a fresh Basalt node syncs the dev chain from a Basalt node that holds it', { timeout: 240_000 }, async () => {
    const source = await startBasalt('d1-source', '127.0.0.41', { dataPath: await replayedDevChain(join(scratch, 'd1-source-data')) });
    try {
      expect(await source.call<NodeInfo>('system_getNodeInfo')).toMatchObject({ height: 420, lastBlockID: TIP.id });
      await withBasaltFollower('d1-follower', '127.0.0.42', source.address, (follower) =>
        expectSyncedFixtureChain('the follower', follower.call, source.call, follower.process.output),
      );
    } finally {
      await stopBasalt(source);
    }
  });

  it('(d2) a fresh lisk-sdk node syncs the dev chain from a Basalt node that holds it', { timeout: 240_000 }, async () => {
    const source = await startBasalt('d2-source', '127.0.0.43', { dataPath: await replayedDevChain(join(scratch, 'd2-source-data')) });
    try {
      // Nothing is pushed by hand: the Lisk node's node info shows it behind, so Basalt offers it the tip.
      await withLiskFollower('d2-lisk', '127.0.0.44', source.address, (lisk) =>
        expectSyncedFixtureChain('the Lisk node', lisk, source.call),
      );
    } finally {
      await stopBasalt(source);
    }
  });

  it('(d3) a fresh Basalt node syncs the dev chain from a lisk-sdk node that holds it', { timeout: 300_000 }, async () => {
    // lisk-sdk 6.1 puts its chain in its node info only when a block arrives by postBlock or is
    // generated (`framework/src/engine/consensus/consensus.ts` execute); a node that synchronized
    // still announces height 0. So the Lisk node gets heights 1..419 by syncing from a P2P server
    // that holds them, then the fixture's block 420 by postBlock, as a node that follows a chain
    // would: then its node info shows the chain, and no new block is ever made.
    const full = devChain();
    const chain = devChain(419);
    const server = await serveChain(chain, '127.0.0.45');
    const offerTip = (): void => server.send('postBlock', encodePostBlock(chain.lastBlock()));
    server.on('peer:connect', offerTip);
    // A node that holds a chain announces a block every few seconds; the server repeats its offer likewise.
    const offers = setInterval(offerTip, 5_000);
    try {
      const lisk = await startLisk('d3-lisk', '127.0.0.46', { LISK_PEER_FOLLOWER: '1', LISK_PEER_SEEDS: `127.0.0.45:${server.port}` });
      try {
        const liskPort = Number(lisk.address.split(':')[1]);
        await waitForInfo('the Lisk node at height 419', lisk.call, (i) => i.height === 419 && !i.syncing, 150_000);
        clearInterval(offers);
        const liskPeer = () => server.connectedPeers().find((peer) => peer.port === liskPort);
        expect(liskPeer()?.options?.height).toBe(0);

        chain.append(full.lastBlock(), full.idAt(420));
        const block420 = Block.fromBytes(full.lastBlock());
        server.applyNodeInfo({ height: 420, maxHeightPrevoted: block420.header.maxHeightPrevoted, lastBlockID: block420.header.id });
        server.sendToPeer(liskPeer()!.peerId, 'postBlock', encodePostBlock(full.lastBlock()));
        await waitForInfo('the Lisk node at the fixture tip', lisk.call, (i) => i.lastBlockID === TIP.id, 30_000);
        await waitFor('the Lisk node announcing height 420', async () => (liskPeer()?.options?.height === 420 ? true : undefined), 30_000);
        await server.stop();

        // The Lisk node is the Basalt node's only peer, and it never generates.
        await withBasaltFollower('d3-follower', '127.0.0.47', lisk.address, async (follower) => {
          await expectSyncedFixtureChain('the Basalt node', follower.call, lisk.call, follower.process.output);
          expect((await lisk.call<NodeInfo>('system_getNodeInfo')).height).toBe(420);
        });
      } finally {
        await liskNodes.stop(lisk.node);
      }
    } finally {
      clearInterval(offers);
      if (server.isRunning) await server.stop();
    }
  });

  it('(a) a fresh Basalt node syncs from a lisk-sdk generator and follows its new blocks', { timeout: 240_000 }, async () => {
    // Fresh from the fixture's genesis, with every validator's key: the Lisk node generates a block
    // in every slot from now on.
    const lisk = await startLisk('a-lisk', '127.0.0.48', { LISK_PEER_KEYS: DEV_VALIDATORS });
    try {
      await waitForInfo('the Lisk node at height 3', lisk.call, (i) => i.height >= 3, 60_000);
      await withBasaltFollower('a-follower', '127.0.0.49', lisk.address, (follower) =>
        expectFollows('the Basalt node', follower.call, lisk.call, follower.process.output),
      );
    } finally {
      await liskNodes.stop(lisk.node);
    }
  });

  it('(b) a fresh lisk-sdk node syncs from a Basalt generator and follows its new blocks', { timeout: 240_000 }, async () => {
    // Basalt holds every validator's key, read from Lisk's own keys file.
    const generator = await startBasalt('b-generator', '127.0.0.50', { keys: DEV_VALIDATORS });
    try {
      await waitForInfo(
        'the Basalt generator at height 3',
        generator.call,
        (i) => i.height >= 3,
        60_000,
        () => generator.process.output(),
      );
      await withLiskFollower('b-lisk', '127.0.0.51', generator.address, (lisk) => expectFollows('the Lisk node', lisk, generator.call));
    } finally {
      await stopBasalt(generator);
    }
  });
});
