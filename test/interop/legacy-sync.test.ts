/**
 * A real lisk-sdk 6.1 node (the lisk-peer tool's install, with its in-memory lisk-db shim) syncs a
 * legacy bracket from a Basalt P2P server: `legacy.sync: true`, one bracket configured, Basalt its
 * only peer, announcing the bracket in its node info and serving getLegacyBlocksFromId from a
 * legacy chain store that holds a synthetic v3 chain. Then the Lisk node's own `legacy_*` answers
 * are compared with Basalt's for every block and transaction, as JSON text, and neither side
 * charged the other anything.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  importLegacyBlocks,
  initLegacyBrackets,
  legacyBracket,
  LegacyChainSync,
  legacyTransactionId,
  type V3BlockSource,
} from '../../src/legacy-chain/index.js';
import { P2pLegacySyncNetwork } from '../../src/p2p/endpoints/p2p-legacy-sync-network.js';
import { codec } from '../../src/codec/index.js';
import { legacyBlocksFromIdHandler, P2pNetwork, p2pSchemas } from '../../src/p2p/index.js';
import { createLegacyEndpoints } from '../../src/rpc/endpoints/legacy-endpoints.js';
import { freePort, LISK_PEER, liskPeerPresent, liskRpc } from '../support/lisk-peer.js';
import { TempLegacyStores } from '../support/temp-legacy-stores.js';
import { buildV3Chain } from '../support/v3-legacy-chain.js';

const run = promisify(execFile);
const LISK_APP = process.env.LISK_PEER_APP ?? '/tmp/lisk-peer';
const present = liskPeerPresent && existsSync(join(LISK_APP, 'node_modules', 'lisk-sdk'));
if (!present) {
  process.stdout.write(
    `legacy sync interop test skipped: needs the lisk-peer tool and lisk-sdk 6.1 installed in ${LISK_APP} (its start.sh installs it)\n`,
  );
}

const scratch = mkdtempSync(join(tmpdir(), 'basalt-legacy-interop-'));
const stores = new TempLegacyStores('basalt-legacy-interop-store-');
let lisk: ChildProcess | undefined;

afterAll(async () => {
  if (lisk && lisk.exitCode === null) {
    lisk.kill('SIGTERM');
    await new Promise((resolve) => lisk?.once('exit', resolve));
  }
  await stores.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

// A Lisk Core v4 app with the sidechain devnet of the lisk-peer tool, no keys, legacy sync on.
const APP = `'use strict';
const path = require('path');
const { Application } = require('lisk-sdk');
const env = process.env;
const config = {
  system: { dataPath: env.LEGACY_DATA, logLevel: 'debug' },
  rpc: { modes: ['http'], host: '127.0.0.1', port: Number(env.LEGACY_RPC_PORT), allowedMethods: ['*'] },
  network: { version: '1.0', host: env.LEGACY_P2P_HOST, port: Number(env.LEGACY_P2P_PORT), seedPeers: [{ ip: env.LEGACY_SEED_HOST, port: Number(env.LEGACY_SEED_PORT) }] },
  genesis: { block: { fromFile: path.join(env.LEGACY_DEVNET, 'genesis_block.blob') }, blockTime: 5, maxTransactionsSize: 15360, chainID: '04000002' },
  generator: { keys: {} },
  modules: { pos: { numberActiveValidators: 7, numberStandbyValidators: 2 } },
  legacy: { sync: true, brackets: [JSON.parse(env.LEGACY_BRACKET)] },
  plugins: {},
};
const { app } = Application.defaultApplication(config, false);
app.run().catch((err) => { console.error('legacy interop app failed:', err); process.exit(1); });
`;

const chain = buildV3Chain({ length: 250, transactionsAt: (height) => (height % 17 === 0 ? 2 : height % 5 === 0 ? 1 : 0) });
const top = chain.at(-1) as V3BlockSource;
// Above the v3 genesis block (lisk-sdk's sync checks each header's lengths, which a genesis header fails).
const START = 5;
const bracket = legacyBracket({ id: top.id, height: top.height }, START);

interface Bracket {
  startHeight: number;
  snapshotBlockHeight: number;
  lastBlockHeight: number;
  snapshotBlockID: string;
}

describe.skipIf(!present)('legacy sync: a lisk-sdk 6.1 node fetches a bracket from Basalt', () => {
  it('stores every block of the bracket and answers the legacy endpoints exactly as Basalt does', { timeout: 240_000 }, async () => {
    if (!existsSync(join(LISK_APP, 'node_modules', '@liskhq', 'lisk-db', 'lib', 'smt.js'))) {
      await run(join(LISK_PEER, 'install-shim.sh'), [LISK_APP], { timeout: 60_000 });
    }
    const store = stores.open('basalt');
    await importLegacyBlocks(store, chain.slice(START), bracket);

    const basalt = new P2pNetwork({
      chainID: Buffer.from('04000002', 'hex'),
      networkVersion: '1.0',
      host: '127.0.0.16',
      port: await freePort('127.0.0.16'),
      handlers: { procedures: { getLegacyBlocksFromId: legacyBlocksFromIdHandler(store) } },
      nodeInfoOptions: { legacy: [top.id] },
    });
    const served: string[] = [];
    basalt.on('request:received', ({ procedure }: { procedure: string }) => served.push(procedure));
    await basalt.start();
    try {
      const appFile = join(scratch, 'app-legacy.js');
      writeFileSync(appFile, APP);
      const rpcPort = await freePort('127.0.0.1');
      const logFile = join(scratch, 'lisk.log');
      lisk = spawn(process.execPath, [appFile], {
        env: {
          ...process.env,
          NODE_PATH: join(LISK_APP, 'node_modules'),
          LEGACY_DATA: join(scratch, 'lisk-data'),
          LEGACY_RPC_PORT: String(rpcPort),
          LEGACY_P2P_HOST: '127.0.0.17',
          LEGACY_P2P_PORT: String(await freePort('127.0.0.17')),
          LEGACY_SEED_HOST: '127.0.0.16',
          LEGACY_SEED_PORT: String(basalt.port),
          LEGACY_DEVNET: join(LISK_PEER, 'devnet'),
          LEGACY_BRACKET: JSON.stringify(bracket),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      lisk.stdout?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
      });
      lisk.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
      });
      const node = { rpcPort };

      // A Basalt node syncs the same bracket from the same server: its record is the reference.
      const follower = stores.open('follower');
      initLegacyBrackets(follower, [bracket]);
      const followerNetwork = new P2pNetwork({
        chainID: Buffer.from('04000002', 'hex'),
        networkVersion: '1.0',
        host: '127.0.0.18',
        port: await freePort('127.0.0.18'),
        fixedPeers: [{ ipAddress: '127.0.0.16', port: basalt.port }],
      });
      await followerNetwork.start();
      const followerSync = new LegacyChainSync({
        store: follower,
        brackets: [bracket],
        network: new P2pLegacySyncNetwork(() => followerNetwork),
        batchDelayMs: 100,
        retryDelayMs: 500,
      });
      followerSync.start();
      await followerSync.idle();
      await followerNetwork.stop();
      const followerBrackets = createLegacyEndpoints({ store: follower, brackets: [bracket] })
        .find((method) => method.name === 'getLegacyBrackets')
        ?.invoke({});

      const deadline = Date.now() + (Number(process.env.LEGACY_INTEROP_SECONDS) || 180) * 1000;
      let brackets: Bracket[] = [];
      for (;;) {
        if (lisk.exitCode !== null) throw new Error(`the Lisk node exited:\n${log.slice(-4000)}`);
        if (Date.now() > deadline && process.env.LEGACY_INTEROP_LOG) writeFileSync(process.env.LEGACY_INTEROP_LOG, log);
        if (Date.now() > deadline) {
          throw new Error(`the Lisk node did not sync the bracket: ${JSON.stringify(brackets)}\n${log.slice(-4000)}`);
        }
        if (log.includes('Finished syncing legacy blocks')) {
          brackets = await liskRpc<Bracket[]>(node, 'legacy_getLegacyBrackets');
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      writeFileSync(logFile, log);

      const ours = new Map(createLegacyEndpoints({ store, brackets: [bracket] }).map((method) => [method.name, method]));
      const basaltAnswer = (name: string, params: Record<string, unknown>) => JSON.stringify(ours.get(name)?.invoke(params));
      const liskAnswer = async (name: string, params: Record<string, unknown>) =>
        JSON.stringify(await liskRpc(node, `legacy_${name}`, params));

      // The snapshot block itself is not synced (peers serve only the blocks below it).
      for (const block of chain.slice(START, -1)) {
        const id = block.id.toString('hex');
        expect(await liskAnswer('getBlockByHeight', { height: block.height })).toBe(
          basaltAnswer('getBlockByHeight', { height: block.height }),
        );
        expect(await liskAnswer('getBlockByID', { id })).toBe(basaltAnswer('getBlockByID', { id }));
        expect(await liskAnswer('getTransactionsByBlockID', { id })).toBe(basaltAnswer('getTransactionsByBlockID', { id }));
        for (const tx of block.transactions) {
          const txId = legacyTransactionId(tx).toString('hex');
          expect(await liskAnswer('getTransactionByID', { id: txId })).toBe(basaltAnswer('getTransactionByID', { id: txId }));
        }
      }
      // The same error texts (lisk-sdk sends them with -32600, Basalt with -32602 / -32001).
      const liskError = async (name: string, params: Record<string, unknown>) => {
        const response = await fetch(`http://127.0.0.1:${rpcPort}/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: '1', method: `legacy_${name}`, params }),
        });
        return ((await response.json()) as { error?: { message: string } }).error?.message;
      };
      const basaltError = (name: string, params: Record<string, unknown>) => {
        try {
          ours.get(name)?.invoke(params);
        } catch (error) {
          return (error as Error).message;
        }
        return undefined;
      };
      const unknownId = 'c4'.repeat(32);
      for (const [name, params] of [
        ['getBlockByID', { id: unknownId }],
        ['getBlockByID', { id: 'xyz' }],
        ['getTransactionByID', { id: unknownId }],
        ['getTransactionsByBlockID', { id: unknownId }],
        ['getBlockByHeight', { height: 4 }],
        ['getBlockByHeight', { height: 200.5 }],
        ['getBlockByHeight', { height: -1 }],
        ['getBlockByHeight', { height: '7' }],
      ] as const) {
        expect({ name, params, message: await liskError(name, params) }).toEqual({ name, params, message: basaltError(name, params) });
      }

      // Both record the lowest height of their first batch once done (lisk-sdk's recursion).
      expect(brackets).toEqual(followerBrackets);
      expect(brackets).toEqual([
        { startHeight: START, snapshotBlockHeight: top.height, lastBlockHeight: 148, snapshotBlockID: bracket.snapshotBlockID },
      ]);

      // lisk-sdk announces the synced bracket to its peers, and charged Basalt nothing.
      await expect
        .poll(() => basalt.connectedPeers().some((peer) => peer.options?.legacy.some((id) => id.equals(top.id))), { timeout: 20_000 })
        .toBe(true);
      // Now the Lisk node serves the bracket too: its getLegacyBlocksFromId answers are Basalt's, byte for byte.
      const liskPeer = basalt.connectedPeers().find((peer) => peer.options?.legacy.some((id) => id.equals(top.id)));
      const handler = legacyBlocksFromIdHandler(store);
      for (const blockID of [
        top.id,
        (chain[120] as V3BlockSource).id,
        (chain[50] as V3BlockSource).id,
        (chain[START] as V3BlockSource).id,
        Buffer.alloc(32, 9),
      ]) {
        const request = codec.encode(p2pSchemas.getLegacyBlocksFromIdRequestSchema, { blockID, snapshotBlockID: top.id });
        const { data } = await basalt.requestFromPeer(liskPeer?.peerId as string, 'getLegacyBlocksFromId', request);
        const expected = Buffer.from((await handler(request, { peerId: 'self', penalize: () => {} })) as Uint8Array);
        expect((data ?? Buffer.alloc(0)).toString('hex')).toBe(expected.toString('hex'));
      }
      const stats = await liskRpc<{ banning: { count: number } }>(node, 'network_getStats');
      expect(stats.banning.count).toBe(0);
      expect(served.filter((procedure) => procedure === 'getLegacyBlocksFromId').length).toBeGreaterThanOrEqual(3);
      expect(basalt.getStats().banning.count).toBe(0);
    } finally {
      await basalt.stop();
    }
  });
});
