/**
 * Two `basalt start` processes on one devnet, over the Lisk P2P protocol: a generator on
 * 127.0.0.1 and a follower without keys on 127.0.0.2 that has it as its seed. The follower syncs
 * the chain made before it started, then follows block by block with the same block IDs; its
 * peers, network stats and readiness are served over RPC; the generator bans no one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startBasaltNode, stopProcess, waitFor, waitForHeight, type NodeProcess } from '../support/node-process.js';
import { RawPeer } from '../unit/p2p/support/network-harness.js';

interface NodeInfo {
  height: number;
  lastBlockID: string;
  syncing: boolean;
}

describe('two Basalt nodes over P2P', () => {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-p2p-'));
  let generator: NodeProcess;
  let follower: NodeProcess;
  let generatorRpc: number;
  let followerRpc: number;
  let followerP2p: number;
  let generatorP2p: number;

  const blockIdAt = async (port: number, height: number): Promise<string> =>
    (await rpc<{ header: { id: string } }>(port, 'chain_getBlockByHeight', { height })).header.id;

  beforeAll(async () => {
    const generatorConfig = join(dir, 'generator.json');
    writeFileSync(generatorConfig, JSON.stringify({ network: { host: '127.0.0.1' } }));
    generator = startBasaltNode(['--data-path', join(dir, 'generator'), '--config', generatorConfig]);
    const generatorPorts = await generator.ports();
    generatorRpc = generatorPorts.rpc;
    generatorP2p = generatorPorts.p2p as number;
    // A few blocks before the follower exists: it must sync them, not only receive new ones.
    await waitForHeight(generatorRpc, 3, 60_000, { output: () => generator.output() });

    const noKeys = join(dir, 'no-keys.json');
    writeFileSync(noKeys, JSON.stringify({ keys: [] }));
    const followerConfig = join(dir, 'follower.json');
    writeFileSync(
      followerConfig,
      JSON.stringify({
        network: { host: '127.0.0.2', seedPeers: [{ ip: '127.0.0.1', port: generatorPorts.p2p }] },
        generator: { keys: { fromFile: noKeys } },
      }),
    );
    follower = startBasaltNode(['--data-path', join(dir, 'follower'), '--config', followerConfig]);
    const followerPorts = await follower.ports();
    followerRpc = followerPorts.rpc;
    followerP2p = followerPorts.p2p as number;
  }, 120_000);

  afterAll(async () => {
    if (follower) await stopProcess(follower.child);
    if (generator) await stopProcess(generator.child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('syncs the chain made before it started, then follows with the same block IDs', async () => {
    const target = (await rpc<NodeInfo>(generatorRpc, 'system_getNodeInfo')).height + 2;
    await waitForHeight(followerRpc, target, 60_000, { output: () => follower.output() });
    for (let height = 1; height <= target; height += 1) {
      expect(await blockIdAt(followerRpc, height)).toBe(await blockIdAt(generatorRpc, height));
    }
    const info = await rpc<NodeInfo>(followerRpc, 'system_getNodeInfo');
    expect(info.syncing).toBe(false);
  });

  it('lists its peer with the tip it announced, and is ready', async () => {
    const peers = await waitFor(
      'the generator among the connected peers',
      async () => {
        const list = await rpc<{ peerId: string; chainID: string; options?: { height: number } }[]>(
          followerRpc,
          'network_getConnectedPeers',
        );
        return list.find((peer) => peer.peerId.startsWith('127.0.0.1:') && (peer.options?.height ?? 0) > 0) ? list : undefined;
      },
      30_000,
    );
    expect(peers.some((peer) => peer.chainID === '04000000')).toBe(true);
    const ready = await fetch(`http://127.0.0.1:${followerRpc}/ready`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { ready: boolean }).ready).toBe(true);
  });

  it('keeps the generator free of bans, and sees the follower connected inbound', async () => {
    const stats = await rpc<{ banning: { count: number }; incoming: { count: number } }>(generatorRpc, 'network_getStats');
    expect(stats.banning.count).toBe(0);
    expect(stats.incoming.count).toBeGreaterThanOrEqual(1);
    expect(followerP2p).toBeGreaterThan(0);
  });

  it('bans hostile peers by IP as Lisk does, and keeps serving the others', async () => {
    const claims = { networkVersion: '5.0', chainID: Buffer.from('04000000', 'hex') };
    // An undecodable block: 100 points, a ban of the sender's IP.
    const garbage = await RawPeer.connect('127.0.0.1', generatorP2p, { localAddress: '127.0.0.9', claims });
    await garbage.handshake();
    garbage.message('postBlock', Buffer.from('not a block').toString('base64'));
    await garbage.waitClosed(5_000);
    await expect(RawPeer.connect('127.0.0.1', generatorP2p, { localAddress: '127.0.0.9', claims })).rejects.toThrow('HTTP 401');
    // A procedure a Lisk node does not serve: the same.
    const unknown = await RawPeer.connect('127.0.0.1', generatorP2p, { localAddress: '127.0.0.10', claims });
    await unknown.handshake();
    void unknown.request('getAccounts').catch(() => undefined);
    await unknown.waitClosed(5_000);
    // A well-behaved peer is still served, and so are RPC clients.
    const honest = await RawPeer.connect('127.0.0.1', generatorP2p, { localAddress: '127.0.0.11', claims });
    await honest.handshake();
    const answer = await honest.request('getLastBlock');
    expect(typeof (answer.data as { data?: unknown }).data).toBe('string');
    honest.close();
    const stats = await rpc<{ banning: { count: number } }>(generatorRpc, 'network_getStats');
    expect(stats.banning.count).toBeGreaterThanOrEqual(2);
    expect((await rpc<NodeInfo>(generatorRpc, 'system_getNodeInfo')).height).toBeGreaterThan(0);
  });
});
