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
 * b.  a fresh lisk-sdk node follows a Basalt node that generates every block;
 * c.  a Basalt node and a lisk-sdk node, each with half of the validators' keys, make one chain
 *     together from the genesis block and finalize and certify it.
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
import { ciSkip } from '../support/run-interop.js';
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
  finalizedHeight: number;
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
  /** P2P port; default any free one. */
  readonly port?: number;
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
    port: options.port ?? 0,
    seedPeers: (options.seeds ?? []).map((seed) => ({ ip: seed.split(':')[0], port: Number(seed.split(':')[1]) })),
  };
  config.generator = { keys: { fromFile: options.keys ?? NO_KEYS } };
  const configFile = join(scratch, `${name}.json`);
  writeFileSync(configFile, JSON.stringify(config));
  const dataPath = options.dataPath ?? join(scratch, `${name}-data`);
  const port = options.port === undefined ? [] : ['--port', String(options.port)];
  const process = startBasaltNode(['--data-path', dataPath, '--config', configFile, ...port]);
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

/** A lisk-sdk 6.1 node on the dev fixture chain with P2P on `host` and `port` (default: chosen here). */
async function startLisk(
  name: string,
  host: string,
  env: Record<string, string>,
  port?: number,
): Promise<{ node: LiskNode; call: Rpc; address: string }> {
  port ??= await freePort(host);
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

async function generatorAt(call: Rpc, height: number): Promise<string> {
  return (await call<{ header: { generatorAddress: string } }>('chain_getBlockByHeight', { height })).header.generatorAddress;
}

interface BftHeights {
  maxHeightPrevoted: number;
  maxHeightPrecommitted: number;
  maxHeightCertified: number;
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

/**
 * The dev validators' keys dealt out by their index in the keys file (even, odd): one keys file
 * per half, and the addresses of each half.
 */
function splitDevValidators(): { files: [string, string]; addresses: [Set<string>, Set<string>] } {
  const { keys } = JSON.parse(readFileSync(DEV_VALIDATORS, 'utf8')) as { keys: { address: string }[] };
  const halves = [0, 1].map((parity) => keys.filter((_key, index) => index % 2 === parity));
  const files = halves.map((half, parity) => {
    const file = join(scratch, `validators-${parity === 0 ? 'even' : 'odd'}.json`);
    writeFileSync(file, JSON.stringify({ keys: half }));
    return file;
  });
  const addresses = halves.map((half) => new Set(half.map((key) => key.address)));
  return { files: [files[0]!, files[1]!], addresses: [addresses[0]!, addresses[1]!] };
}

/** The last lines of a Lisk node's log, for a timeout message. */
function liskLogTail(node: LiskNode, lines = 40): string {
  try {
    return readFileSync(node.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
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

  it.skipIf(ciSkip)(
    '(c) a Basalt node and a lisk-sdk node, each with half of the validators, make one chain and finalize and certify it',
    { timeout: 840_000 },
    async () => {
      // Both fresh on the genesis block, each the other's seed; ports fixed in advance so that
      // each can be given the other's address before either has started.
      const { files, addresses } = splitDevValidators();
      const basaltAt = { host: '127.0.0.70', port: 19070 };
      const liskAt = { host: '127.0.0.71', port: 19071 };
      const [basalt, lisk] = await Promise.all([
        startBasalt('c-basalt', basaltAt.host, { port: basaltAt.port, seeds: [`${liskAt.host}:${liskAt.port}`], keys: files[0] }),
        startLisk(
          'c-lisk',
          liskAt.host,
          // The case runs for more than the default ten minutes of a Lisk node's life.
          { LISK_PEER_KEYS: files[1], LISK_PEER_SEEDS: `${basaltAt.host}:${basaltAt.port}`, LISK_PEER_MAX_SECONDS: '1200' },
          liskAt.port,
        ),
      ]);
      const output = () => `${basalt.process.output().split('\n').slice(-40).join('\n')}\n--- lisk-sdk:\n${liskLogTail(lisk.node)}`;
      const infos = () => Promise.all([basalt.call<NodeInfo>('system_getNodeInfo'), lisk.call<NodeInfo>('system_getNodeInfo')]);
      try {
        // Both halves generate on one chain: a block of each half below a height both hold
        // with the same ID.
        await waitFor(
          'blocks of both halves on one chain',
          async () => {
            const height = Math.min(...(await infos()).map((info) => info.height));
            if (height < 2) return undefined;
            const [ours, theirs] = await Promise.all([headerAt(basalt.call, height), headerAt(lisk.call, height)]);
            if (ours.id !== theirs.id) return undefined;
            const generators = await Promise.all(range(1, height).map((h) => generatorAt(basalt.call, h)));
            return addresses.every((half) => generators.some((address) => half.has(address))) ? height : undefined;
          },
          120_000,
          { intervalMs: 1_000, output },
        );

        // 101 validators with one vote each: a height is prevoted once 68 validators generated
        // after it, and precommitted (final) once 68 more did, so finality comes after about 136
        // blocks, 7 minutes of 3 s slots.
        await waitFor(
          'the same finalized height above 0 on both',
          async () => {
            const [ours, theirs] = await infos();
            return ours.finalizedHeight > 0 && ours.finalizedHeight === theirs.finalizedHeight ? ours.finalizedHeight : undefined;
          },
          600_000,
          { intervalMs: 1_000, output },
        );

        // Certificates need the single commits of both halves (68 of 101 validators), so each
        // node must take the other's commits from the network.
        await waitFor(
          'a certified height on both',
          async () => {
            const heights = await Promise.all([basalt.call, lisk.call].map((call) => call<BftHeights>('consensus_getBFTHeights')));
            return heights.every((bft) => bft.maxHeightCertified > 0) ? heights : undefined;
          },
          90_000,
          { intervalMs: 1_000, output },
        );

        // The same block at every height. Each half holds about half of the 101 slots of a round:
        // both must have generated all along, not just once.
        const tip = Math.min(...(await infos()).map((info) => info.height));
        await expectSameBlocks(basalt.call, lisk.call, range(1, tip));
        const generators = await Promise.all(range(1, tip).map((height) => generatorAt(basalt.call, height)));
        for (const half of addresses) expect(generators.filter((address) => half.has(address)).length).toBeGreaterThan(tip / 4);

        // Neither side found anything to ban the other for.
        expect((await basalt.call<{ banning: { count: number } }>('network_getStats')).banning.count).toBe(0);
        expect((await lisk.call<{ banning: unknown }>('network_getStats')).banning).toEqual({ count: 0, bannedPeers: {} });
      } finally {
        await Promise.all([stopBasalt(basalt), liskNodes.stop(lisk.node)]);
      }
    },
  );
});
