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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { BLOCKS_PER_ANSWER } from '../../src/p2p/index.js';
import { stopProcess } from '../../test/support/node-process.js';
import { DEV_CONFIG_FILE, readDevBlocks } from '../lib/dev-chain.js';
import { findLiskPeer, type LiskPeerTool } from '../lib/lisk-peer.js';
import { hasTaskset } from '../lib/load-run.js';
import { measureServingUnderLoad } from '../lib/serving-load.js';
import type { Suite } from '../lib/suite.js';
import {
  describeSync,
  faster,
  startSource,
  syncBasaltFollower,
  syncLiskFollower,
  syncRows,
  type Follower,
  type Source,
  type SourceNode,
  type SyncRun,
} from '../lib/sync-follow.js';
import type { SyncPeersConfig } from '../lib/sync-peers.js';

/** Loopback addresses of the nodes (one each: Lisk bans by IP). */
const HOSTS = {
  source: '127.0.0.50',
  basaltFollower: '127.0.0.51',
  liskFollower: '127.0.0.52',
  /** The 8 peers that ask for blocks while RPC is loaded. */
  servedPeers: Array.from({ length: 8 }, (_, i) => `127.0.0.${53 + i}`),
} as const;
/** Rounds of a full run (one with --quick). */
const ROUNDS = 2;

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

/** A fresh Basalt follower seeded with the source, from its spawn to the source's tip, then stopped. */
async function basaltFollower(scratch: string, source: Source): Promise<SyncRun> {
  const follower = await syncBasaltFollower({ scratch, source, host: HOSTS.basaltFollower });
  try {
    return follower.run;
  } finally {
    await follower.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A fresh lisk-sdk 6.1 follower (no keys) seeded with the source, from its start to the source's tip, then stopped. */
async function liskFollower(scratch: string, tool: LiskPeerTool, source: Source): Promise<SyncRun> {
  const follower = await syncLiskFollower({ scratch, tool, source, host: HOSTS.liskFollower });
  await follower.stop();
  return follower.run;
}

const BASALT: Follower = { head: '', tail: ', Basalt from Basalt' };
const LISK: Follower = { head: 'lisk-sdk 6.1 (JS storage stand-in) ', tail: ', from Basalt' };

export const syncSuite: Suite = {
  name: 'sync',
  summary: 'a fresh node syncing the dev chain plus full transfer blocks from `basalt start` over P2P; lisk-sdk 6.1 beside it',
  async run(progress, options) {
    const count = options.quick ? 12 : 60;
    const chainConfig = loadChainConfig(DEV_CONFIG_FILE);
    const tool = findLiskPeer();
    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-sync-'));
    let served: SourceNode | undefined;
    try {
      served = await startSource(work, count, HOSTS.source, 'sync', progress);
      const { source, blocks } = served;
      const { tip, networkVersion } = source;

      if ('missing' in tool) progress(`sync: lisk-sdk rows skipped: ${tool.missing}; the Basalt rows have no baseline`);
      else progress(`sync: lisk-sdk ${tool.version} followers too (over the JS storage stand-in for lisk-db), from the same source`);
      // Interleaved rounds (Basalt, lisk-sdk, Basalt, …), each follower keeping its best, so a
      // busy neighbour slows a round rather than one contender.
      let basalt: SyncRun | undefined;
      let lisk: SyncRun | undefined;
      for (let round = 1; round <= (options.quick ? 1 : ROUNDS); round++) {
        const ours = await basaltFollower(join(work, `basalt-follower-${round}`), source);
        progress(describeSync(`sync, Basalt from Basalt, round ${round}`, ours, source));
        basalt = faster(basalt, ours);
        if ('missing' in tool) continue;
        const theirs = await liskFollower(join(work, `lisk-follower-${round}`), tool, source);
        progress(describeSync(`sync, lisk-sdk from Basalt, round ${round}`, theirs, source));
        lisk = faster(lisk, theirs);
      }
      const results =
        lisk === undefined
          ? syncRows(BASALT, basalt!, source)
          : [...syncRows(BASALT, basalt!, source, LISK), ...syncRows(LISK, lisk, source)];
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
      const node = { pid: served.node.child.pid!, rpcPort: served.rpcPort };
      return [...results, ...(await measureServingUnderLoad({ work, node, peers, quick: options.quick, progress }))];
    } finally {
      if (served) await stopProcess(served.node.child);
      rmSync(work, { recursive: true, force: true });
    }
  },
};
