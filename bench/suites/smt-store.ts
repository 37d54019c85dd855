/**
 * The state tree as the node uses it: the real StateDb over an LMDB environment opened with the
 * node's options (CHAIN_ENV_OPTIONS: durable commits, an fsync per committed transaction), a
 * tree of 1,000,000 leaves, then blocks of 10,000 updates (5,000 existing keys, 5,000 new), each
 * one prepareUpdate (the SMT batch update on the in-memory tree) plus the commit of values and
 * the block's diff in one write transaction, as ChainProcessor does (StateDb.transactionAsync:
 * LMDB's write thread does the puts, the commit and the fsync). Target: 60,000 updates/s
 * including the LMDB commit. Last, the store is reopened twice: once rebuilding the tree
 * from the stored values (a start after a crash), then, after the tree snapshot a clean shutdown
 * writes, adopting the snapshot (a start after a clean shutdown; target 2 s). The memory row is
 * the native tree's bytes (records, garbage, table) per state entry after the blocks.
 *
 * Two figures for the durable commit. "with durable commit (fsync per block)" is the node's way
 * (ChainProcessor.processBlocks): blocks back to back, the next one's tree update computed while
 * this one's transaction is on LMDB's write thread (StateDb.queueTransaction moves the tree as it
 * queues), the next transaction queued once this one is committed and visible (what survives a
 * killed process) while its fsync runs, and the clock stopped when the last block is flushed, so
 * every block counted is on disk: updates over that time.
 * "each block awaited until flushed" waits for every block's own fsync before the next starts
 * (what a power loss cannot take back); its median block is reported. docs/architecture.md
 * ("Durability of a committed block") says what each guarantees.
 *
 * Unlike the in-memory suites, the tree moves on with every block, so each block is timed once.
 * The tree is native when the addon is loaded (the node's choice, made by src/native at import;
 * BASALT_NATIVE=0 gives the TypeScript figure) and the row says so.
 *
 * Where a block of 10,000 updates spends its time (2-core machine, thread CPU time): leaf keys
 * and value hashes 4-5 ms (warm), the native tree update about 25 ms, the packed diff 3 ms,
 * collecting and queueing the 10,000 writes for LMDB about 8 ms, and applying the write set to
 * the tree about 21 ms on the main thread (StateTree.advance: the previous block's stale nodes
 * dropped, this one's written); on lmdb-js's write threads about 105 ms, a third of it
 * in the kernel: the 10,000 value puts each copy their own page of a 1,000,000-entry B-tree
 * (about 8,900 pages per block), the commit writes them, and the fsync follows. The same puts
 * into a handful of pages cost those threads 7-9 ms: the cost is the pages, not lmdb-js's
 * per-put instructions, nor the diff (one put, no difference measured without it). Sorting the
 * keys before they are issued saved about 5 ms of the write threads' time and cost the main
 * thread 4-5 ms. The LMDB options that would cut the rest are weighed in
 * src/chain/lmdb-environment.ts. Committed synchronously on the main thread, as before, the block
 * cost that thread about 140 ms of CPU; now about 70 ms (A/B in alternating blocks, same
 * process).
 *
 * Back to back, the fsync does not hold the next block back: it runs after the write lock is
 * released. Nor do the next block's hashes and tree update (30-35 ms): the tree moved to this
 * block's root when its transaction was queued, keeping the previous root's nodes until it is
 * visible (proofs meanwhile, and a failed commit, go back to that root), so they run while the
 * write threads put this block's values. What is serial is what lies between one block becoming
 * visible and the next one's puts starting: noticing it (a poll, 1-2 ms) and collecting and
 * queueing the next block's writes (8 ms). A block then takes about as long as its puts and
 * commit, some 90-100 ms, where it took the main thread's 65 ms plus those before (60,000-65,000
 * updates/s at best). That needs a free core for each of the two threads: on the shared 2-core
 * machine, with other work running (load 2-7), eight alternating runs gave 48,400-84,700
 * updates/s, median 52,700 (the best two in the quietest minutes), against 21,800-47,600, median
 * 30,700, for the serial order with the bench's earlier bookkeeping (below); with the same
 * bookkeeping and the machine saturated, the two orders were within the noise of each other
 * (20,000-64,000 updates/s each over 16 groups of 8 blocks, no core to spare). Per block the main thread spent 73-100 ms of CPU either way, the other
 * threads 95-140 ms, of it about 100 ms lmdb-js's. Both roots' nodes are in memory while a block
 * is being written: the memory row reads about 9% more (212 B per entry, 195 before).
 *
 * The bench keeps its own record of the entries (for the previous values of each change) in flat
 * buffers (`StoredEntries`): kept in a Map of a million Buffers, it had V8's helper threads spend
 * some 140 ms of CPU per block collecting it, on the same two cores.
 *
 * History: with the tree's nodes in LMDB keyed by hash this ran at ~1,500 updates/s: a block put
 * ~91,000 nodes and deleted ~79,000, each on a random page that LMDB copies on write (~30 µs per
 * operation). With the tree in memory the commit writes the 10,000 values and one diff.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { CHAIN_ENV_OPTIONS } from '../../src/chain/lmdb-environment.js';
import { nativeAvailable } from '../../src/native/index.js';
import type { StateChange } from '../../src/state/overlay-state.js';
import { type QueuedTransaction, StateDb } from '../../src/state/state-db.js';
import type { Measurement } from '../lib/figure.js';
import type { Suite } from '../lib/suite.js';

const LEAVES = 1_000_000;
const BUILD_CHUNK = 250_000;
const BATCH = 10_000;
/** A module store prefix (6 bytes) as in real state keys; the rest is hashed into the SMT key. */
const PREFIX = Buffer.from('0000000a8000', 'hex');

const KEY_LENGTH = PREFIX.length + 20;
const VALUE_LENGTH = 32;

/**
 * The bench's own record of the stored entries, for the `previous` values a block's changes
 * carry, kept in flat memory: every key in one buffer, every current value in another. With a
 * Map of a million keys to values of their own (a million Buffers, each its own ArrayBuffer),
 * V8's collector spent some 140 ms of CPU per block on its helper threads, scavenges and
 * marking of the bench's bookkeeping, on a machine of two cores that LMDB's write thread and
 * the main thread need: a cost of the bench, not of the store. A block's changes are views into
 * three buffers of its own (keys of new entries, new values, previous values).
 */
class StoredEntries {
  private readonly keyBytes: Buffer;
  private readonly valueBytes: Buffer;
  /** Entries recorded; entry i's key and value are at i × their length. */
  count = 0;

  constructor(capacity: number) {
    this.keyBytes = Buffer.alloc(capacity * KEY_LENGTH);
    this.valueBytes = Buffer.alloc(capacity * VALUE_LENGTH);
  }

  /** Changes giving new random values to the existing entries `existing` and to `fresh` new keys. */
  changes(existing: readonly number[], fresh: number): StateChange[] {
    const tails = randomBytes(fresh * 20);
    const first = this.count;
    for (let i = 0; i < fresh; i++) {
      const at = (first + i) * KEY_LENGTH;
      PREFIX.copy(this.keyBytes, at);
      tails.copy(this.keyBytes, at + PREFIX.length, i * 20, (i + 1) * 20);
    }
    this.count += fresh;
    const indexes = [...existing, ...Array.from({ length: fresh }, (_, i) => first + i)];
    const values = randomBytes(indexes.length * VALUE_LENGTH);
    const previous = Buffer.allocUnsafe(existing.length * VALUE_LENGTH);
    return indexes.map((index, i) => {
      const at = index * VALUE_LENGTH;
      const value = values.subarray(i * VALUE_LENGTH, (i + 1) * VALUE_LENGTH);
      let before: Buffer | undefined;
      if (i < existing.length) {
        this.valueBytes.copy(previous, i * VALUE_LENGTH, at, at + VALUE_LENGTH);
        before = previous.subarray(i * VALUE_LENGTH, (i + 1) * VALUE_LENGTH);
      }
      value.copy(this.valueBytes, at);
      return { key: this.keyBytes.subarray(index * KEY_LENGTH, (index + 1) * KEY_LENGTH), value, previous: before };
    });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export const smtStoreSuite: Suite = {
  name: 'smt-store',
  summary: '10,000 state updates per block into 1,000,000 leaves through StateDb, LMDB commit included',
  async run(progress, options) {
    const dir = mkdtempSync(join(tmpdir(), 'basalt-bench-smt-store-'));
    let env = open({ path: join(dir, 'basalt.lmdb'), ...CHAIN_ENV_OPTIONS });
    try {
      const stateDb = new StateDb(env);
      const rounds = options.quick ? 4 : 8;
      // The build, then the warm-up block and two rows of `rounds` blocks, half of each block new keys.
      const entries = new StoredEntries(LEAVES + (1 + 2 * rounds) * (BATCH / 2));
      let height = 0;
      const applyBlock = async (changes: StateChange[], untilFlushed = false): Promise<{ prepareMs: number; totalMs: number }> => {
        height += 1;
        const start = performance.now();
        const update = stateDb.prepareUpdate(changes);
        const prepared = performance.now();
        await stateDb.transactionAsync(() => stateDb.commit(height, changes, [], update));
        if (untilFlushed) await stateDb.flushed();
        return { prepareMs: prepared - start, totalMs: performance.now() - start };
      };

      const buildStart = performance.now();
      for (let built = 0; built < LEAVES; built += BUILD_CHUNK) {
        progress(`smt-store: building ${built.toLocaleString('en-US')}..${(built + BUILD_CHUNK).toLocaleString('en-US')} leaves in LMDB`);
        await applyBlock(entries.changes([], BUILD_CHUNK));
      }
      // The build chunks are not blocks a node would keep diffs of.
      await stateDb.flushed();
      stateDb.transaction(() => stateDb.pruneDiffsUpTo(height));
      const buildS = (performance.now() - buildStart) / 1000;

      // The next block's changes: 5,000 existing keys and 5,000 new, distinct as a block's state
      // diff is. Made ahead of the timed part (their `previous` values follow the order applied).
      const nextBlock = (): StateChange[] => {
        const existing = new Set(Array.from({ length: BATCH / 2 }, () => Math.floor(Math.random() * entries.count)));
        return entries.changes([...existing], BATCH / 2);
      };
      const prepares: number[] = [];
      // The first block warms the LMDB page cache and the JIT; it is not counted.
      progress('smt-store: a warm-up block');
      await applyBlock(nextBlock(), true);

      // Blocks back to back, as a node applies them (ChainProcessor.processBlocks): block N+1's
      // tree update is computed while N's transaction is on LMDB's write thread (the tree moved
      // to N's root when N was queued), and N+1 is queued once N is visible, N's fsync running
      // meanwhile; the clock stops when the last one is flushed, so every block counted is on disk.
      progress(`smt-store: ${rounds} blocks back to back, ${BATCH.toLocaleString('en-US')} updates each`);
      const sustainedBlocks = Array.from({ length: rounds }, nextBlock);
      let sustainedUpdates = 0;
      let committing: QueuedTransaction<void> | undefined;
      const sustainedStart = performance.now();
      for (const changes of sustainedBlocks) {
        height += 1;
        const at = height;
        const start = performance.now();
        const update = stateDb.prepareUpdate(changes);
        prepares.push(changes.length / (performance.now() - start));
        await committing?.visible();
        committing = stateDb.queueTransaction(() => stateDb.commit(at, changes, [], update));
        sustainedUpdates += changes.length;
      }
      await committing?.visible();
      await stateDb.flushed();
      const sustained = (sustainedUpdates / (performance.now() - sustainedStart)) * 1000;

      // The same, each block waited for until its fsync ended (a power loss keeps every one).
      const flushedTotals: number[] = [];
      for (let i = 0; i < rounds; i++) {
        progress(`smt-store: block ${i + 1}/${rounds} awaited until flushed`);
        const changes = nextBlock();
        const timing = await applyBlock(changes, true);
        flushedTotals.push(changes.length / timing.totalMs);
        prepares.push(changes.length / timing.prepareMs);
      }
      await stateDb.flushed();
      // Native memory of the tree as blocks leave it (garbage not yet compacted included).
      const treeBytes = stateDb.treeMemoryBytes();
      const committedRoot = stateDb.root();

      const snapshotPath = join(dir, 'state-tree.snapshot');
      const reopen = async (): Promise<{ stateDb: StateDb; seconds: number }> => {
        await env.close();
        const start = performance.now();
        env = open({ path: join(dir, 'basalt.lmdb'), ...CHAIN_ENV_OPTIONS });
        const reopened = new StateDb(env, undefined, snapshotPath);
        return { stateDb: reopened, seconds: (performance.now() - start) / 1000 };
      };
      progress('smt-store: reopening the store (the tree is rebuilt from the values)');
      const rebuilt = await reopen();
      if (rebuilt.stateDb.treeOrigin.from !== 'values') throw new Error('the first reopen found a snapshot');
      progress('smt-store: writing the tree snapshot (clean shutdown) and reopening from it');
      const writeStart = performance.now();
      rebuilt.stateDb.writeSnapshot();
      const writeS = (performance.now() - writeStart) / 1000;
      const adopted = await reopen();
      if (adopted.stateDb.treeOrigin.from !== 'snapshot')
        throw new Error(`the snapshot was not adopted: ${JSON.stringify(adopted.stateDb.treeOrigin)}`);
      if (!adopted.stateDb.root().equals(committedRoot)) throw new Error('the adopted tree has another root');

      const tree = nativeAvailable ? 'native' : 'TypeScript';
      const name = `smt-store ${tree} 10,000 updates into 1,000,000 leaves, StateDb over LMDB`;
      const results: Measurement[] = [
        { name: `${name}, with durable commit (fsync per block)`, value: sustained, unit: 'updates/s' },
        { name: `${name}, each block awaited until flushed to disk`, value: median(flushedTotals) * 1000, unit: 'updates/s' },
        { name: `${name}, tree update only (in memory)`, value: median(prepares) * 1000, unit: 'updates/s' },
        { name: `smt-store ${tree} build 1,000,000 leaves in LMDB (${LEAVES / BUILD_CHUNK} commits)`, value: buildS, unit: 's' },
        { name: `smt-store ${tree} reopen 1,000,000 leaves (tree rebuilt from the values)`, value: rebuilt.seconds, unit: 's' },
        { name: `smt-store ${tree} reopen 1,000,000 leaves after clean shutdown (snapshot)`, value: adopted.seconds, unit: 's' },
        { name: `smt-store ${tree} write the snapshot of 1,000,000 leaves at clean shutdown`, value: writeS, unit: 's' },
      ];
      if (treeBytes !== undefined) {
        results.push({
          name: `smt-store ${tree} memory per state entry (tree in native memory)`,
          value: treeBytes / entries.count,
          unit: 'B/entry',
        });
      }
      return results;
    } finally {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
