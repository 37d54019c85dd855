/**
 * Basalt and lisk-sdk 6.1 side by side, serving the same chain. A Basalt source holds the dev
 * chain fixture plus full transfer blocks (lib/sync-follow.ts); a fresh Basalt follower and a
 * fresh lisk-sdk follower (the reference tools' runner, over their in-memory JavaScript stand-in
 * for lisk-db) sync it over P2P, timed as the sync suite times its followers (one round each).
 * The source is then stopped and the followers, which are kept apart from each other, are pinned
 * to core 0 together and their RPC loaded in turn from core 1 (Basalt, lisk-sdk, Basalt,
 * lisk-sdk, each keeping its better round): chain_getBlockByHeight at random heights over the
 * whole chain and at one hot height, chain_getLastBlock, token_getBalance and a stream of new
 * signed transfers to txpool_postTransaction, over HTTP and WS with 64 requests in flight.
 *
 * Before anything is timed, both nodes must give byte-equal results for a sample of blocks, every
 * funded account's balance and nonce, and a transfer posted to both. The first 8 s of load each
 * node serves after its sync (random heights over HTTP, code and caches cold) are reported apart.
 * Skipped, with the reason, without lisk-sdk 6.1 or taskset.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopProcess } from '../../test/support/node-process.js';
import { DEV_CONFIG_FILE, readDevBlocks } from '../lib/dev-chain.js';
import { devAccounts, devTransfersHex, DEV_TOKEN_ID } from '../lib/dev-transfers.js';
import type { Measurement } from '../lib/figure.js';
import { findLiskPeer } from '../lib/lisk-peer.js';
import { hasTaskset, hasWrk, pinProcessTree, runLoad, type LoadResult } from '../lib/load-run.js';
import { blockByHeightBodies, randomHeights, rpcBody as body, writeBodies } from '../lib/rpc-bodies.js';
import { rpcText } from '../lib/rpc-node.js';
import type { Suite } from '../lib/suite.js';
import {
  describeSync,
  FIXTURE_TIP,
  MissedBlockEvents,
  startSource,
  syncBasaltFollower,
  syncLiskFollower,
  syncRows,
  type Follower,
  type SourceNode,
  type SyncedFollower,
} from '../lib/sync-follow.js';

/** Loopback addresses of the three nodes (one each: Lisk bans by IP). */
const HOSTS = { source: '127.0.0.90', basalt: '127.0.0.91', lisk: '127.0.0.92' } as const;
/**
 * The load: 64 requests in flight (64 HTTP connections, or 4 WebSockets × 16); the first
 * `warmupSeconds` after the sync reported apart; `randomHeights` heights per bodies file.
 */
const LOAD = { connections: 64, wsSockets: 4, wsInFlight: 16, warmupSeconds: 8, randomHeights: 4096 } as const;
/**
 * The dev chain's largest block with transactions (17), finalized: the rpc-load suite's height.
 * Its answer is cached by Basalt; a transfer block above the finalized height is not.
 */
const DEV_BUSIEST_HEIGHT = 106;

/** lisk-sdk 6.1's pool limits: the defaults of @liskhq/lisk-transaction-pool, which it always uses. */
const LISK_POOL = { maxTransactions: 4096, maxTransactionsPerAccount: 64 } as const;

interface PoolLimits {
  readonly maxTransactions: number;
  readonly maxTransactionsPerAccount: number;
}

/** One of the two nodes under load. */
interface Contender {
  /** Row name's head: `<head>rpc http …`. */
  readonly head: string;
  readonly label: string;
  readonly node: SyncedFollower;
}

const BASALT_HEAD = 'Basalt ';
const LISK_HEAD = 'lisk-sdk 6.1 (JS storage stand-in) ';
const BASALT_SYNC: Follower = { head: '', tail: ', Basalt from Basalt (lisk suite, one round)' };
const LISK_SYNC: Follower = { head: LISK_HEAD, tail: ', from Basalt (lisk suite, one round)' };

/**
 * The `result` of a JSON-RPC answer as the node wrote it (byte for byte). Both nodes put
 * `result` last; only the envelope's key order differs (Basalt: jsonrpc, id; lisk-sdk: id, jsonrpc).
 */
function resultText(answer: string, what: string): string {
  const at = answer.indexOf('"result":');
  if (at < 0) throw new Error(`${what} answered ${answer.slice(0, 300)}`);
  return answer.slice(at + '"result":'.length, answer.lastIndexOf('}'));
}

/** The same request on both nodes must give byte-equal results; returns Basalt's. */
async function sameResult(a: Contender, b: Contender, method: string, params?: unknown): Promise<string> {
  const what = `${method} ${JSON.stringify(params ?? {})}`;
  const [ours, theirs] = await Promise.all([rpcText(a.node.rpcPort, method, params), rpcText(b.node.rpcPort, method, params)]);
  const left = resultText(ours, `${a.label} ${what}`);
  const right = resultText(theirs, `${b.label} ${what}`);
  if (left !== right)
    throw new Error(`${what}: the nodes disagree.\n${a.label}: ${left.slice(0, 400)}\n${b.label}: ${right.slice(0, 400)}`);
  return left;
}

interface ReadTarget {
  /** Row name's part after `rpc <transport> `. */
  readonly name: string;
  readonly bodies: string[];
}

interface PoolCount {
  readonly unconfirmedTransactions: number;
}

async function poolSize(node: SyncedFollower): Promise<number> {
  const answer = JSON.parse(await rpcText(node.rpcPort, 'system_getNodeInfo')) as { result: PoolCount };
  return answer.result.unconfirmedTransactions;
}

async function finalizedHeight(c: Contender): Promise<number> {
  const answer = JSON.parse(await rpcText(c.node.rpcPort, 'system_getNodeInfo')) as { result: { finalizedHeight: number } };
  return answer.result.finalizedHeight;
}

/** The node's connected peers, as `ip:port`. */
async function connectedPeers(node: SyncedFollower): Promise<string[]> {
  const answer = JSON.parse(await rpcText(node.rpcPort, 'network_getConnectedPeers')) as { result: { ipAddress: string; port: number }[] };
  return answer.result.map((peer) => `${peer.ipAddress}:${peer.port}`);
}

function describe(r: LoadResult): string {
  const errors = r.socketErrors + r.non2xx > 0 ? `, ${r.socketErrors} socket errors, ${r.non2xx} non-2xx` : '';
  const answers = r.rpcErrors === null ? 'answers checked before the run' : `${r.rpcErrors} error answers`;
  return `${Math.round(r.requestsPerSecond)} req/s, p99 ${r.p99Ms.toFixed(2)} ms, ${r.requests} requests, ${answers}${errors} (${r.client})`;
}

/** The round with more requests/s; its latencies come with it. */
function better(a: LoadResult | undefined, b: LoadResult): LoadResult {
  return a === undefined || b.requestsPerSecond > a.requestsPerSecond ? b : a;
}

/** A throughput row of each node (Basalt's with lisk-sdk's as baseline) and their p99 rows. */
function pairRows(name: string, ours: LoadResult, theirs: LoadResult): Measurement[] {
  const basalt = `${BASALT_HEAD}${name}`;
  const lisk = `${LISK_HEAD}${name}`;
  return [
    { name: basalt, value: ours.requestsPerSecond, unit: 'req/s', baseline: lisk },
    { name: `${basalt} p99`, value: ours.p99Ms, unit: 'ms' },
    { name: lisk, value: theirs.requestsPerSecond, unit: 'req/s' },
    { name: `${lisk} p99`, value: theirs.p99Ms, unit: 'ms' },
  ];
}

/** Sync rows of the lisk suite: ratios only on the throughput rows. */
function syncPair(basalt: SyncedFollower, lisk: SyncedFollower, source: SourceNode['source']): Measurement[] {
  return [...syncRows(BASALT_SYNC, basalt.run, source, LISK_SYNC), ...syncRows(LISK_SYNC, lisk.run, source)].map((row) =>
    row.unit === 's' ? { ...row, baseline: undefined } : row,
  );
}

export const liskSuite: Suite = {
  name: 'lisk',
  summary: 'Basalt and lisk-sdk 6.1 (JS storage stand-in) serving the same synced chain: RPC over HTTP and WS, block sync',
  async run(progress, options) {
    const tool = findLiskPeer();
    if ('missing' in tool) {
      progress(`lisk: skipped: ${tool.missing}`);
      return [];
    }
    if (!hasTaskset()) {
      progress('lisk: skipped: taskset not found (both nodes must share one core of their own)');
      return [];
    }
    const count = options.quick ? 12 : 60;
    const seconds = options.quick ? 2 : 4;
    const rounds = options.quick ? 1 : 2;
    const warmupSeconds = options.quick ? 2 : LOAD.warmupSeconds;
    const accounts = devAccounts();
    // Every posted transfer stays in the pool (no block is forged), so all of them must fit in
    // the smaller of the two pools: lisk-sdk 6.1 builds its pool with the package defaults (4,096
    // in all, 64 per account), whatever `transactionPool` says, and the fixture's config asks for
    // the same. Each account gets one transfer posted as a check, then perRun in every run (one
    // run per round and transport).
    const pool = (JSON.parse(readFileSync(DEV_CONFIG_FILE, 'utf8')) as { transactionPool: PoolLimits }).transactionPool;
    const budget = Math.min(
      LISK_POOL.maxTransactionsPerAccount,
      pool.maxTransactionsPerAccount,
      Math.floor(Math.min(LISK_POOL.maxTransactions, pool.maxTransactions) / accounts.length),
    );
    const perRun = Math.floor((budget - 1) / (rounds * 2));
    const perAccount = 1 + rounds * 2 * perRun;

    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-lisk-'));
    let served: SourceNode | undefined;
    const followers: SyncedFollower[] = [];
    try {
      served = await startSource(work, count, HOSTS.source, 'lisk', progress);
      const { source, blocks } = served;
      const tipHeight = source.tip.header.height;

      // The followers must not find each other through the source: a transaction posted to one
      // would be relayed to the other while it is not the one under load.
      const basaltNode = await syncBasaltFollower({
        scratch: join(work, 'basalt'),
        source,
        host: HOSTS.basalt,
        // lisk-sdk dials from 127.0.0.1 whatever its host, so that address is refused too.
        network: { blacklistedIPs: [HOSTS.lisk, '127.0.0.1'] },
      });
      followers.push(basaltNode);
      progress(describeSync('lisk, Basalt from Basalt', basaltNode.run, source));
      // Now and then the events of lisk-sdk's last batch never come (seen on a busy machine, the
      // sync itself fine): a fresh follower is then timed instead, up to three in all.
      let liskNode: SyncedFollower | undefined;
      for (let attempt = 1; liskNode === undefined; attempt++) {
        try {
          liskNode = await syncLiskFollower({
            scratch: join(work, `lisk-${attempt}`),
            tool,
            source,
            host: HOSTS.lisk,
            extraSeconds: 1200,
          });
        } catch (error) {
          if (!(error instanceof MissedBlockEvents) || attempt === 3) throw error;
          progress(`lisk: ${error.message} Timing a fresh lisk-sdk follower.`);
        }
      }
      followers.push(liskNode);
      progress(describeSync(`lisk, lisk-sdk ${tool.version} from Basalt`, liskNode.run, source));
      const results = syncPair(basaltNode, liskNode, source);

      await stopProcess(served.node.child);
      served = undefined;
      for (let waited = 0; ; waited += 250) {
        const peers = [...(await connectedPeers(basaltNode)), ...(await connectedPeers(liskNode))];
        if (peers.length === 0) break;
        if (waited > 30_000)
          throw new Error(
            `The followers still have peers 30 s after the source stopped: ${peers.join(', ')}; Basalt's log:\n${basaltNode.log().slice(-3000)}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const basalt: Contender = { head: BASALT_HEAD, label: 'Basalt', node: basaltNode };
      const lisk: Contender = { head: LISK_HEAD, label: `lisk-sdk ${tool.version}`, node: liskNode };
      // Both on core 0 for the rest of the run (one idle while the other is loaded), the load on core 1.
      for (const c of [basalt, lisk]) pinProcessTree(c.node.pid(), '0');

      progress('lisk: checking that both nodes give the same results');
      const heights = randomHeights(LOAD.randomHeights, tipHeight);
      const hot = FIXTURE_TIP + Math.floor(count / 2);
      const sample = new Set([0, 1, DEV_BUSIEST_HEIGHT, FIXTURE_TIP, FIXTURE_TIP + 1, hot, tipHeight, ...heights.slice(0, 24)]);
      for (const height of sample) await sameResult(basalt, lisk, 'chain_getBlockByHeight', { height });
      await sameResult(basalt, lisk, 'chain_getLastBlock');
      // Each node's own view of finality (both follow LIP 0058 on the same headers: equal).
      const finalized = await finalizedHeight(basalt);
      if ((await finalizedHeight(lisk)) !== finalized) throw new Error('The nodes disagree on the finalized height.');
      const transactionsAt = (height: number): number =>
        height > FIXTURE_TIP ? blocks[height - FIXTURE_TIP - 1]!.transactions.length : readDevBlocks()[height]!.transactionCount;
      const tokenID = DEV_TOKEN_ID.toString('hex');
      const nonces = new Map<string, bigint>();
      for (const { address } of accounts) {
        await sameResult(basalt, lisk, 'token_getBalance', { address, tokenID });
        const auth = JSON.parse(await sameResult(basalt, lisk, 'auth_getAuthAccount', { address })) as { nonce: string };
        nonces.set(address, BigInt(auth.nonce));
      }
      const signed = await devTransfersHex(perAccount, async (address) => nonces.get(address)!);
      const ofAccount = (i: number) => signed.slice(i * perAccount, (i + 1) * perAccount);
      for (const [i] of accounts.entries()) {
        const transaction = ofAccount(i)[0]!;
        const answer = await sameResult(basalt, lisk, 'txpool_postTransaction', { transaction });
        if (!answer.includes('"transactionId"')) throw new Error(`txpool_postTransaction answered ${answer}`);
      }
      for (const c of [basalt, lisk])
        if ((await poolSize(c.node)) !== accounts.length)
          throw new Error(`${c.label} does not hold the ${accounts.length} checked transfers.`);
      progress(
        `lisk: finalized height ${finalized} on both; equal results for ${sample.size} heights, the last block, ${accounts.length} balances and nonces, ${accounts.length} posted transfers`,
      );

      const file = (name: string, lines: readonly string[]): string => writeBodies(join(work, `${name}.txt`), lines);
      const reads: ReadTarget[] = [
        {
          name: `chain_getBlockByHeight, random heights 0-${tipHeight}`,
          bodies: blockByHeightBodies(heights),
        },
        ...[DEV_BUSIEST_HEIGHT, hot].map((height) => ({
          name: `chain_getBlockByHeight, hot height ${height} (${transactionsAt(height)} tx, ${height <= finalized ? '' : 'not '}finalized)`,
          bodies: [body('chain_getBlockByHeight', { height })],
        })),
        { name: 'chain_getLastBlock', bodies: [body('chain_getLastBlock')] },
        {
          name: `token_getBalance, ${accounts.length} accounts`,
          bodies: accounts.map(({ address }) => body('token_getBalance', { address, tokenID })),
        },
      ];
      const readFiles = reads.map((target, i) => file(`reads-${i}`, target.bodies));
      if (!hasWrk()) progress('lisk: wrk not found (apt-get install wrk): HTTP reads use the basalt http client');
      const httpClient = hasWrk() ? '' : ' [basalt http client]';

      const load = async (c: Contender, transport: 'http' | 'ws', bodiesFile: string, secs: number, once = false) => {
        const r = await runLoad({
          transport,
          port: c.node.rpcPort,
          bodiesFile,
          seconds: secs,
          connections: transport === 'http' ? LOAD.connections : LOAD.wsSockets,
          inFlight: LOAD.wsInFlight,
          cpus: '1',
          // Reads were checked above (wrk would be the limit if it scanned every answer); our
          // client counts error answers anyway, and the posted transfers must all be accepted.
          countErrors: transport === 'ws' || once,
          once,
          // lisk-sdk's answers can take seconds at saturation on a busy machine: slow, not failed.
          timeoutSeconds: 30,
        });
        if (r.socketErrors + r.non2xx > r.requests / 100 || (r.rpcErrors ?? 0) > 0)
          throw new Error(`${c.label} over ${transport}: ${describe(r)}`);
        return r;
      };

      // The first load after each node's sync: random heights, nothing warmed yet.
      const warmName = `rpc http${httpClient} ${reads[0]!.name}, first ${warmupSeconds} s after sync`;
      const warm = [];
      for (const c of [basalt, lisk]) {
        const r = await load(c, 'http', readFiles[0]!, warmupSeconds);
        progress(`${c.head}${warmName}: ${describe(r)}`);
        warm.push(r);
      }
      results.push(...pairRows(warmName, warm[0]!, warm[1]!));

      for (const [i, target] of reads.entries()) {
        for (const transport of ['http', 'ws'] as const) {
          const name = `rpc ${transport}${transport === 'http' ? httpClient : ''} ${target.name}`;
          for (const c of [basalt, lisk]) await load(c, transport, readFiles[i]!, 1);
          let ours: LoadResult | undefined;
          let theirs: LoadResult | undefined;
          for (let round = 1; round <= rounds; round++) {
            ours = better(ours, await load(basalt, transport, readFiles[i]!, seconds));
            theirs = better(theirs, await load(lisk, transport, readFiles[i]!, seconds));
          }
          progress(`${BASALT_HEAD}${name}: ${describe(ours!)}`);
          progress(`${LISK_HEAD}${name}: ${describe(theirs!)}`);
          results.push(...pairRows(name, ours!, theirs!));
        }
      }

      // New transfers: each run posts every account's next perRun transfers once, accounts in
      // turn (nonce order within an account, 103 requests apart), the same ones to both nodes.
      let posted = accounts.length;
      for (const transport of ['http', 'ws'] as const) {
        const client = transport === 'http' ? ' [basalt http client]' : '';
        const name = `rpc ${transport}${client} txpool_postTransaction, ${accounts.length * perRun} new transfers`;
        let ours: LoadResult | undefined;
        let theirs: LoadResult | undefined;
        for (let round = 1; round <= rounds; round++) {
          const run = (transport === 'http' ? 0 : rounds) + round - 1;
          const lines: string[] = [];
          for (let n = 0; n < perRun; n++)
            for (const [a] of accounts.entries())
              lines.push(body('txpool_postTransaction', { transaction: ofAccount(a)[1 + run * perRun + n] }));
          const stream = file(`transfers-${run}`, lines);
          posted += lines.length;
          for (const c of [basalt, lisk]) {
            const r = await load(c, transport, stream, 300, true);
            const held = await poolSize(c.node);
            if (r.requests !== lines.length || held !== posted)
              throw new Error(`${c.label}: ${r.requests} of ${lines.length} transfers answered, ${held} of ${posted} in the pool.`);
            if (c === basalt) ours = better(ours, r);
            else theirs = better(theirs, r);
          }
        }
        progress(`${BASALT_HEAD}${name}: ${describe(ours!)}`);
        progress(`${LISK_HEAD}${name}: ${describe(theirs!)}; all accepted by both`);
        results.push(...pairRows(name, ours!, theirs!));
      }
      return results;
    } finally {
      if (served) await stopProcess(served.node.child);
      for (const f of followers) await f.stop();
      rmSync(work, { recursive: true, force: true });
    }
  },
};
