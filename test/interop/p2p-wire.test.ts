/**
 * Basalt's P2P layer against Lisk's own code. Runs only where the team's reference tools (TOOLS
 * below: a lisk-p2p 0.10.0 probe and a lisk-sdk 6.1.0 node runner) are checked out next to the
 * repository; elsewhere every test is skipped. `npx vitest run test/interop`.
 *
 * 1. lisk-p2p 0.10.0, the P2P library of lisk-sdk 6.1.0, connects to a Basalt server that serves
 *    the dev fixture chain, and runs a Lisk node's connect sequence and block requests.
 * 2. Basalt's client connects to a real lisk-sdk 6.1 node and fetches its node info, last block and
 *    blocks from the genesis ID, decoding every block with Basalt's block codec.
 * 3. A real lisk-sdk 6.1 node syncs the dev fixture chain from a Basalt server, through Lisk's own
 *    synchronizer, after Basalt announces the tip with postBlock.
 *
 * Each node and client has its own loopback address (Lisk bans by IP). Everything started here is
 * stopped here, by pid, within bounded time.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { codec } from '../../src/codec/index.js';
import { P2pNetwork, type P2pPeerInfo, p2pSchemas } from '../../src/p2p/index.js';
import { freePort, INTEROP_TOOLS, LISK_PEER, LiskNodes, liskPeerPresent, liskRpc } from '../support/lisk-peer.js';
import { devChain, encodePostBlock, serveChain } from '../unit/p2p/support/memory-chain.js';
import { nextEvent } from '../unit/p2p/support/network-harness.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PROBE = join(INTEROP_TOOLS, 'p2p-probe', 'run.sh');
const DEV_CHAIN = join(REPO, 'test', 'fixtures', 'chains', 'dev');
const toolsPresent = existsSync(PROBE) && liskPeerPresent;

if (!toolsPresent) {
  process.stdout.write('p2p interop tests skipped: ../shared/tools (p2p-probe, lisk-peer) is not next to this repository\n');
}

const scratch = mkdtempSync(join(tmpdir(), 'basalt-p2p-interop-'));
const liskNodes = new LiskNodes(scratch);

afterAll(async () => {
  await liskNodes.stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

interface LiskNodeInfo {
  height: number;
  lastBlockID: string;
  syncing: boolean;
}

interface LiskNetworkStats {
  banning: { count: number; bannedPeers: Record<string, unknown> };
  totalRequestsReceived: Record<string, number>;
}

describe.skipIf(!toolsPresent)('Lisk P2P interop (lisk-p2p 0.10.0 and lisk-sdk 6.1.0)', () => {
  it('lisk-p2p connects to a Basalt server and gets node info, blocks and common blocks without a penalty', {
    timeout: 150_000,
  }, async () => {
    const full = devChain();
    // Serve up to height 419 and announce block 420 once the probe is connected, as a producing node would.
    const chain = devChain(419);
    const basalt = await serveChain(chain, '127.0.0.12');
    const served: string[] = [];
    basalt.on('request:received', ({ procedure }) => served.push(procedure));
    basalt.once('peer:connect', (peer) => {
      chain.append(full.lastBlock(), full.idAt(420));
      basalt.applyNodeInfo({ height: 420, lastBlockID: full.idAt(420) });
      basalt.sendToPeer(peer.peerId, 'postBlock', encodePostBlock(full.lastBlock()));
    });
    try {
      const args = [
        'probe.js',
        ...['--host', '127.0.0.12', '--port', String(basalt.port), '--chain-id', '04000000', '--network-version', '1.0'],
        ...['--seconds', '4', '--genesis-block', join(DEV_CHAIN, 'genesis_block.blob'), '--quiet'],
      ];
      const { stdout } = await run(PROBE, args, { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({
        stdout: error.stdout ?? '{}',
      }));
      const report = JSON.parse(stdout) as {
        result: string;
        checks: Record<string, boolean>;
        advisories: Record<string, boolean>;
        errors: unknown[];
        remoteNodeInfo: { nonce: string };
        rpc: { getBlocksFromId: { count: number; order: string; lowestHeight: number; highestHeight: number } };
        messageCounts: Record<string, number>;
      };
      expect(report.errors).toEqual([]);
      expect(report.checks).toMatchObject({
        connected: true,
        getLastBlock: true,
        getBlocksFromId: true,
        getHighestCommonBlock: true,
        notDisconnected: true,
      });
      expect(Object.entries(report.checks).filter(([, passed]) => !passed)).toEqual([]);
      expect(Object.entries(report.advisories).filter(([, passed]) => !passed)).toEqual([]);
      expect(report.result).toBe('pass');
      expect(report.remoteNodeInfo.nonce).toBe(basalt.nonce);
      expect(report.rpc.getBlocksFromId).toMatchObject({ count: 103, order: 'descending', lowestHeight: 1, highestHeight: 103 });
      expect(report.messageCounts.postBlock).toBe(1);
      expect(served).toEqual(
        expect.arrayContaining(['getNodeInfo', 'getPeers', 'getLastBlock', 'getBlocksFromId', 'getHighestCommonBlock', 'getTransactions']),
      );
      expect(basalt.getStats().banning.count).toBe(0);
    } finally {
      await basalt.stop();
    }
  });

  it('Basalt connects to a lisk-sdk 6.1 node and fetches node info, the last block and blocks from genesis', {
    timeout: 300_000,
  }, async () => {
    const p2pPort = await freePort('127.0.0.2');
    const lisk = await liskNodes.start('generator', { LISK_PEER_P2P_HOST: '127.0.0.2', LISK_PEER_P2P_PORT: String(p2pPort) });
    const deadline = Date.now() + 60_000;
    while ((await liskRpc<LiskNodeInfo>(lisk, 'system_getNodeInfo')).height < 2) {
      if (Date.now() > deadline) throw new Error('the Lisk node produced no blocks within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const basalt = new P2pNetwork({
      chainID: Buffer.from('04000002', 'hex'),
      networkVersion: '1.0',
      port: await freePort('127.0.0.13'),
      host: '127.0.0.13',
      maxInboundConnections: 0,
      advertiseAddress: false,
      fixedPeers: [{ ipAddress: '127.0.0.2', port: p2pPort }],
    });
    const connected = nextEvent<[P2pPeerInfo]>(basalt, 'peer:connect', () => true, 20_000);
    await basalt.start();
    try {
      const [lisk6] = await connected;
      expect(lisk6).toMatchObject({ peerId: `127.0.0.2:${p2pPort}`, networkVersion: '1.0', advertiseAddress: true });
      expect(lisk6.chainID?.toString('hex')).toBe('04000002');
      expect(lisk6.options?.blockVersion).toBe(2);

      const last = Block.fromBytes((await basalt.request('getLastBlock')).data!);
      const byHeight = await liskRpc<{ header: { id: string } }>(lisk, 'chain_getBlockByHeight', { height: last.header.height });
      expect(last.header.id.toString('hex')).toBe(byHeight.header.id);

      const genesis = Block.fromBytes(readFileSync(join(LISK_PEER, 'devnet', 'genesis_block.blob')));
      const request = codec.encode(p2pSchemas.getBlocksFromIdRequestSchema, { blockId: genesis.header.id });
      const { blocks } = codec.decode<{ blocks: Buffer[] }>(
        p2pSchemas.getBlocksFromIdResponseSchema,
        (await basalt.request('getBlocksFromId', request)).data!,
      );
      const decoded = blocks.map((bytes) => Block.fromBytes(bytes));
      expect(decoded.length).toBeGreaterThanOrEqual(2);
      expect(decoded.every((block, i) => block.bytes.equals(blocks[i]!))).toBe(true);
      const ascending = [...decoded].reverse();
      expect(ascending.map((block) => block.header.height)).toEqual(ascending.map((_, i) => i + 1));
      expect(ascending[0]!.header.previousBlockID).toEqual(genesis.header.id);
      for (let i = 1; i < ascending.length; i += 1) expect(ascending[i]!.header.previousBlockID).toEqual(ascending[i - 1]!.header.id);

      // the node announces each new block; Basalt decodes it too
      const [message] = await nextEvent<[{ event: string; data?: Buffer }]>(
        basalt,
        'message:received',
        (m) => m.event === 'postBlock',
        20_000,
      );
      const announced = Block.fromBytes(codec.decode<{ block: Buffer }>(p2pSchemas.postBlockSchema, message.data!).block);
      expect(announced.header.height).toBeGreaterThan(last.header.height - 1);

      const stats = await liskRpc<LiskNetworkStats>(lisk, 'network_getStats');
      expect(stats.banning).toEqual({ count: 0, bannedPeers: {} });
      expect(stats.totalRequestsReceived).toMatchObject({ getNodeInfo: 1, getPeers: 1, getLastBlock: 1, getBlocksFromId: 1 });
    } finally {
      await basalt.stop();
      await liskNodes.stop(lisk);
    }
  });

  it('a lisk-sdk 6.1 node syncs the dev chain from a Basalt server', { timeout: 300_000 }, async () => {
    const chain = devChain();
    const basalt = await serveChain(chain, '127.0.0.14');
    basalt.on('peer:connect', (peer) => basalt.sendToPeer(peer.peerId, 'postBlock', encodePostBlock(chain.lastBlock())));
    try {
      const follower = await liskNodes.start('follower', {
        LISK_PEER_PROFILE: 'oracle',
        LISK_PEER_ORACLE_DIR: DEV_CHAIN,
        LISK_PEER_FOLLOWER: '1',
        LISK_PEER_P2P_HOST: '127.0.0.15',
        LISK_PEER_P2P_PORT: String(await freePort('127.0.0.15')),
        LISK_PEER_SEEDS: `127.0.0.14:${basalt.port}`,
      });
      const tipId = chain.idAt(420).toString('hex');
      const deadline = Date.now() + 180_000;
      let info = await liskRpc<LiskNodeInfo>(follower, 'system_getNodeInfo');
      for (let round = 1; info.lastBlockID !== tipId || info.syncing; round += 1) {
        if (Date.now() > deadline) throw new Error(`the Lisk node did not sync: height ${info.height}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        // a producing node announces a block every few seconds; repeat the announcement likewise
        if (round % 5 === 0 && info.height === 0) basalt.send('postBlock', encodePostBlock(chain.lastBlock()));
        info = await liskRpc<LiskNodeInfo>(follower, 'system_getNodeInfo');
      }
      expect(info.height).toBe(420);
      expect((await liskRpc<LiskNetworkStats>(follower, 'network_getStats')).banning).toEqual({ count: 0, bannedPeers: {} });
      expect(basalt.getStats().banning.count).toBe(0);
      expect(basalt.getStats().totalRequestsReceived.getBlocksFromId).toBeGreaterThanOrEqual(5);
      await liskNodes.stop(follower);
    } finally {
      await basalt.stop();
    }
  });
});
