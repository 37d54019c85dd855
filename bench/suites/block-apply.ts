/**
 * Block apply of full transfer blocks (target: at least 10,000 tx/s, signatures included). The
 * blocks are real: forged on the dev chain by its validators (lib/transfer-chain.ts), 95 token
 * transfers each (the chain's 15,360-byte maxTransactionsSize), from 103 senders. A second store,
 * with the dev chain replayed, then applies them through ChainProcessor.processBlocks (block N+1
 * checked and executed while N commits), the path of replay and of batches from peers, announced
 * ahead with ChainProcessor.verifyAhead as sync and the replay CLI do: decode, static checks,
 * header signature, transaction signatures (through whichever verifier the engine holds, the next
 * blocks' checked while one executes), execution, state and event roots, BFT, and the LMDB commit
 * in the node's default durable mode (one fsync per block). The final state root must be the
 * producer's, or the suite fails. With the pool, it runs with the node's default thread count and
 * with one thread fewer or more (cores and cores − 1 both measured), which is how the default was
 * chosen (docs/architecture.md); with the default thread count but the signature checks of the
 * blocks planned ahead held to one thread fewer at once (how the default, no cap, was chosen);
 * once more with the default after applying WARM_UP_BLOCKS
 * blocks of the same shape untimed (the steady state of a node that keeps applying blocks); and
 * once with processBlock block after block, each committed before the next one executes, which
 * is what processBlocks' overlap is measured against.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig, type ChainConfig } from '../../src/config/lisk-config.js';
import { offThreadWork, type OffThreadWork } from '../../src/node.js';
import { defaultWorkerThreads, WorkerPool } from '../../src/workers/index.js';
import { DEV_CONFIG_FILE } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { PoolCounters } from '../lib/pool-counters.js';
import type { Suite } from '../lib/suite.js';
import { openReplayedDevChain, produceTransferBlocks } from '../lib/transfer-chain.js';

export const blockApplySuite: Suite = {
  name: 'block-apply',
  summary: 'full token-transfer blocks through processBlocks on LMDB (durable commits), tx/s',
  async run(progress, options) {
    const count = options.quick ? 6 : 30;
    const config = loadChainConfig(DEV_CONFIG_FILE);
    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-apply-'));
    try {
      progress(`block-apply: forging ${count + WARM_UP_BLOCKS} full transfer blocks on the dev chain`);
      const forged = (await produceTransferBlocks(join(work, 'producer'), config, count + WARM_UP_BLOCKS)).map((bytes) =>
        Block.fromBytes(bytes),
      );
      const blocks = forged.slice(0, count);
      const warmUp = forged.slice(0, WARM_UP_BLOCKS);
      const afterWarmUp = forged.slice(WARM_UP_BLOCKS);
      const transactionsAfterWarmUp = afterWarmUp.reduce((n, b) => n + b.transactions.length, 0);
      const transactions = blocks.reduce((n, b) => n + b.transactions.length, 0);
      progress(
        `block-apply: ${transactions} transfers in ${count} blocks (${(transactions / count).toFixed(0)} per block); replaying the dev chain into a second store`,
      );
      // The node's path (signatures batched in the worker pool), next to everything on the main thread.
      const onMainThread = await applyBlocks(join(work, 'replica-main'), config, blocks);
      const label = `block apply ${count} full transfer blocks, ${transactions} tx (durable commits)`;
      const mainName = `${label}, main thread`;
      const threads = defaultWorkerThreads();
      const cores = availableParallelism();
      // The other candidate for the default: cores − 1 when the default is all cores, else all cores.
      // The two sizes run in alternate rounds, each keeping its best, so that other work on the
      // machine weighs on both alike (one round each with --quick).
      const otherThreads = threads === cores ? cores - 1 : cores;
      let withPool: PooledApply | undefined;
      let other: PooledApply | undefined;
      let warm: PooledApply | undefined;
      let oneByOne: PooledApply | undefined;
      // The signature checks of the blocks planned ahead may take every thread (the default); the
      // alternative, measured in the same rounds: at most one thread fewer at once.
      const aheadThreads = threads - 1;
      let capped: PooledApply | undefined;
      for (let round = 0; round < (options.quick ? 1 : 3); round += 1) {
        withPool = best(withPool, await applyWithPool(join(work, `replica-pool-${round}`), config, blocks, threads));
        if (aheadThreads > 0)
          capped = best(capped, await applyWithPool(join(work, `replica-pool-capped-${round}`), config, blocks, threads, { aheadThreads }));
        if (otherThreads > 0)
          other = best(other, await applyWithPool(join(work, `replica-pool-other-${round}`), config, blocks, otherThreads));
        warm = best(warm, await applyWithPool(join(work, `replica-pool-warm-${round}`), config, afterWarmUp, threads, { warmUp }));
        const single = await applyWithPool(join(work, `replica-pool-single-${round}`), config, blocks, threads, { oneByOne: true });
        oneByOne = best(oneByOne, single);
      }
      if (withPool === undefined) throw new Error('block-apply: no pooled round ran.');
      const poolName = `${label}, worker pool`;
      const results: Measurement[] = [
        { name: poolName, value: (transactions / withPool.ms) * 1000, unit: 'tx/s', baseline: mainName },
        ...withPool.counters.rows(`${poolName} (${threads} threads)`),
        { name: mainName, value: (transactions / onMainThread) * 1000, unit: 'tx/s' },
        {
          name: `block apply ${count} full transfer blocks (durable commits), worker pool`,
          value: (count / withPool.ms) * 1000,
          unit: 'blocks/s',
        },
      ];
      if (oneByOne !== undefined) {
        results.push({
          name: `${label}, worker pool, one block at a time (processBlock: each block committed before the next executes)`,
          value: (transactions / oneByOne.ms) * 1000,
          unit: 'tx/s',
          baseline: poolName,
        });
      }
      if (warm !== undefined) {
        results.push({
          name: `block apply ${count} full transfer blocks, ${transactionsAfterWarmUp} tx (durable commits), worker pool, after ${WARM_UP_BLOCKS} blocks applied first`,
          value: (transactionsAfterWarmUp / warm.ms) * 1000,
          unit: 'tx/s',
          baseline: poolName,
        });
      }
      if (capped !== undefined) {
        results.push({
          name: `${label}, worker pool, checks of the blocks ahead on at most ${aheadThreads} of the ${threads} threads at once (the default: all)`,
          value: (transactions / capped.ms) * 1000,
          unit: 'tx/s',
          baseline: poolName,
        });
      }
      if (other !== undefined) {
        results.push({
          name: `${label}, worker pool of ${otherThreads} threads (${cores} cores; the default is ${threads})`,
          value: (transactions / other.ms) * 1000,
          unit: 'tx/s',
          baseline: poolName,
        });
      }
      return results;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

/**
 * Blocks applied untimed before the steady-state row's timed blocks. The first blocks of this
 * shape are still being optimized by V8 (about a hundred optimizing compilations in the first ten
 * blocks on the development machine, a handful per ten blocks after forty, several milliseconds
 * of compiler threads' CPU per block at first, on a machine whose two cores the block's work
 * already fills); the cold rows keep measuring from the first block, this one measures a node
 * that has been applying such blocks for a while, as a syncing node soon is.
 */
const WARM_UP_BLOCKS = 20;

const EMPTY_BATCH = { count: 0, digests: new Uint8Array(0), signatures: new Uint8Array(0), publicKeys: new Uint8Array(0) };

interface ApplyOptions {
  /** Applied first, untimed: the blocks before the timed ones (WARM_UP_BLOCKS). */
  readonly warmUp?: readonly Block[];
  /** processBlock block after block instead of processBlocks (no overlap of a commit with the next block). */
  readonly oneByOne?: boolean;
  /** Threads the checks of blocks planned ahead may occupy at once (default: the node's, every thread). */
  readonly aheadThreads?: number;
}

interface PooledApply {
  readonly ms: number;
  readonly counters: PoolCounters;
}

function best(kept: PooledApply | undefined, run: PooledApply): PooledApply {
  return kept === undefined || run.ms < kept.ms ? run : kept;
}

/** applyBlocks with a pool of `threads`, started and warm beforehand, and its counters over the run. */
async function applyWithPool(
  dataPath: string,
  config: ChainConfig,
  blocks: readonly Block[],
  threads: number,
  how: ApplyOptions = {},
): Promise<PooledApply> {
  const workers = new WorkerPool({ threads });
  try {
    // Thread start-up (loading libsodium, and tsx from the sources) is not block apply.
    await Promise.all(
      Array.from({ length: workers.threads * 2 }, () => workers.run('ed25519.verifyBatch', EMPTY_BATCH, { priority: 'consensus' })),
    );
    let counters: PoolCounters | undefined;
    const ms = await applyBlocks(
      dataPath,
      config,
      blocks,
      offThreadWork(workers, { aheadThreads: how.aheadThreads }),
      () => {
        counters = new PoolCounters(workers);
      },
      how,
    );
    counters?.stop();
    return { ms, counters: counters as PoolCounters };
  } finally {
    await workers.close();
  }
}

/** Milliseconds to apply `blocks` to a fresh replica of the dev chain, checked against the producer's tip. */
async function applyBlocks(
  dataPath: string,
  config: ChainConfig,
  blocks: readonly Block[],
  offThread: OffThreadWork = {},
  /** Called when the timed part starts (the replica is ready). */
  onStart?: () => void,
  { warmUp = [], oneByOne = false }: ApplyOptions = {},
): Promise<number> {
  const clock = { now: 0 };
  const chain = await openReplayedDevChain(dataPath, config, clock, offThread);
  try {
    clock.now = blocks[blocks.length - 1]!.header.timestamp;
    if (warmUp.length > 0) {
      const copies = warmUp.map((b) => Block.fromBytes(b.bytes));
      chain.processor.verifyAhead(copies);
      await chain.processor.processBlocks(copies);
    }
    const bytes = blocks.map((b) => b.bytes);
    onStart?.();
    const start = performance.now();
    // Bytes in, committed blocks out, as sync applies a batch fetched from a peer (and the replay
    // CLI the next lines of its file): decoded, announced with verifyAhead so that each block's
    // signatures are checked while the blocks before it execute and commit, then applied in order
    // with processBlocks, each block executing while the one before it is committed.
    const decoded = bytes.map((b) => Block.fromBytes(b));
    chain.processor.verifyAhead(decoded);
    if (oneByOne) for (const block of decoded) await chain.processor.processBlock(block);
    else await chain.processor.processBlocks(decoded);
    const ms = performance.now() - start;
    const tip = chain.processor.tipHeader();
    const last = blocks[blocks.length - 1]!.header;
    if (!tip.id.equals(last.id) || !chain.stateDb.root().equals(last.stateRoot))
      throw new Error("The replica did not reach the producer's tip and state root.");
    return ms;
  } finally {
    await chain.close();
  }
}
