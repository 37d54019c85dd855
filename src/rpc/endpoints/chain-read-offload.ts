/**
 * Sends the heavy chain reads to the worker pool (so they do not hold up the network thread), where
 * tasks open the same LMDB environment read-only and build the same JSON text
 * (src/workers/tasks/chain-read-*.ts). Small requests stay on the main thread: a pool round trip
 * costs the main thread a message each way plus copying the answer, and adds queueing latency,
 * which a read of a few cached or small blocks does not repay.
 *
 * Consistency: each task carries the tip the main thread saw (height and block ID). The worker
 * answers from a snapshot in which that block is still stored, never above its height, so its
 * answer is the one the main thread would have given when the request arrived; if the block was
 * reverted meanwhile the worker says "stale" and the main thread answers itself, on the chain as
 * it is then.
 */
import type { ChainStore } from '../../chain/chain-store.js';
import { chainReadBlocks, type ChainReadBlocksInput, type ChainReadBlocksOutput } from '../../workers/tasks/chain-read-blocks.js';
import type { ReadTip } from '../../workers/tasks/chain-read-env.js';
import type { TaskPriority } from '../../workers/priority-task-queue.js';
import {
  chainReadEventProof,
  type ChainReadEventProofInput,
  type ChainReadJsonOutput,
} from '../../workers/tasks/chain-read-event-proof.js';
import { jsonArrayText } from '../../chain/json/chain-json-text.js';
import { stateReadProve, type StateReadProveInput } from '../../workers/tasks/state-read-prove.js';
import { eventProofJsonText } from '../../chain/json/proof-json.js';
import { requireSpan, type ChainJsonReader } from './chain-json-reader.js';
import type { BlockRef } from './tip-json-cache.js';

/**
 * Blocks whose JSON is not cached that a request must need before it goes to a worker. Building
 * one block's JSON on the main thread takes from about 30 µs (an empty block) to over 1 ms (a
 * full one); a pool task costs the main thread some 20-50 µs. At 8 blocks the worker saves the
 * main thread several times its cost even for empty blocks, while the usual explorer page (a few
 * recent blocks) stays on the synchronous path without a queue in front of it.
 */
export const OFFLOAD_MIN_UNCACHED_BLOCKS = 8;

/**
 * state_prove query keys from which the proof is built in a worker. The tree is in native memory,
 * so one key's walk costs a few microseconds; what the worker saves the main thread is that plus
 * the proof's JSON (some twenty hex sibling hashes per key), against a pool round trip of some
 * 20-50 µs: a few dozen keys is where it starts to pay.
 */
export const OFFLOAD_MIN_STATE_PROOF_KEYS = 32;

/** The worker pool as the read endpoints use it (src/workers provides it). */
export interface ReadTaskPool {
  /** Runs the registered task named `name` on `input` in a worker, in the queue class given. */
  run(name: string, input: unknown, options: { readonly priority: TaskPriority }): Promise<unknown>;
}

/** Where heavy reads go: the pool and the data directory whose environment the workers open. */
export interface ChainReadOffload {
  readonly pool: ReadTaskPool;
  readonly dataPath: string;
}

/**
 * Runs a read task; a pool that cannot run it (closed while the node stops, a thread that died:
 * WorkerPoolError, code WORKER_POOL_UNAVAILABLE) counts as "stale", so the main thread answers
 * instead of the client getting an error for a read it could have had. A failing task still fails.
 */
async function runInWorker<O>(pool: ReadTaskPool, name: string, input: unknown): Promise<O | { readonly stale: true }> {
  try {
    // RPC reads queue behind consensus work and block serving (src/workers/priority-task-queue.ts).
    return (await pool.run(name, input, { priority: 'reads' })) as O;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'WORKER_POOL_UNAVAILABLE') return { stale: true };
    throw error;
  }
}

export function readTip(ref: BlockRef): ReadTip {
  return { height: ref.height, id: ref.id };
}

/** The chain reads with a pool behind them; each stays on the main thread when small. */
export class OffloadedChainReads {
  constructor(
    private readonly reader: ChainJsonReader,
    private readonly store: Pick<ChainStore, 'tipHeight' | 'genesisHeight' | 'finalizedHeight' | 'getHeightById'>,
    private readonly offload: ChainReadOffload,
  ) {}

  /** chain_getBlocksByHeightBetween, with the reader's span limit and order. */
  blocksJsonBetween(from: number, to: number, maxSpan: number): string | Promise<string> {
    requireSpan(from, to, maxSpan);
    const heights: number[] = [];
    const lowest = Math.max(from, this.store.genesisHeight());
    for (let height = Math.min(to, this.store.tipHeight()); height >= lowest; height -= 1) heights.push(height);
    return this.blocksJson(heights, () => this.reader.blocksJsonBetween(from, to, maxSpan));
  }

  /** chain_getBlocksByIDs: the leading known IDs, resolved here (one index read each). */
  blocksJsonByIds(idsHex: readonly string[]): string | Promise<string> {
    const heights: number[] = [];
    for (const idHex of idsHex) {
      const height = this.store.getHeightById(Buffer.from(idHex, 'hex'));
      if (height === undefined) break;
      heights.push(height);
    }
    return this.blocksJson(heights, () => this.reader.blocksJsonByIds(idsHex));
  }

  /** chain_proveEvents: always in a worker, as rebuilding a block's event tree is hashing. */
  async eventProofJson(height: number, queries: readonly string[]): Promise<string> {
    this.reader.requireStoredHeight(height);
    const input: ChainReadEventProofInput = { dataPath: this.offload.dataPath, tip: readTip(this.reader.tipRef()), height, queries };
    const answer = await runInWorker<ChainReadJsonOutput>(this.offload.pool, chainReadEventProof.name, input);
    return answer.stale ? eventProofJsonText(this.reader.eventsAt(height), queries) : answer.json;
  }

  /**
   * The blocks at `heights` in that order: cached ones from the cache, the others from a worker
   * when there are enough of them, else everything by `inMainThread`.
   */
  private blocksJson(heights: readonly number[], inMainThread: () => string): string | Promise<string> {
    const parts = heights.map((height) => this.reader.cachedBlockJson(height));
    const missing = heights.filter((_height, index) => parts[index] === undefined);
    if (missing.length < OFFLOAD_MIN_UNCACHED_BLOCKS) return inMainThread();
    return this.blocksFromWorker(parts, missing, inMainThread);
  }

  private async blocksFromWorker(parts: (string | undefined)[], missing: number[], inMainThread: () => string): Promise<string> {
    const finalizedHeight = this.store.finalizedHeight();
    const input: ChainReadBlocksInput = { dataPath: this.offload.dataPath, tip: readTip(this.reader.tipRef()), heights: missing };
    const answer = await runInWorker<ChainReadBlocksOutput>(this.offload.pool, chainReadBlocks.name, input);
    if (answer.stale) return inMainThread();
    let next = 0;
    const texts = parts.map((part) => {
      if (part !== undefined) return part;
      const height = missing[next] as number;
      const json = answer.texts[next] as string;
      next += 1;
      // Finalized when the request arrived, hence forever: worth keeping for the next request.
      this.reader.keepBlockJson(height, json, finalizedHeight);
      return json;
    });
    return jsonArrayText(texts);
  }
}

/**
 * The `state_prove` answer for `queryKeys`, built in a worker on the shared in-memory state tree
 * (`treeId`, StateDb.treeShareId) against `root`, the committed root when the request arrived.
 */
export async function stateProofJson(
  pool: ReadTaskPool,
  treeId: number,
  root: Buffer,
  queryKeys: readonly string[],
  inMainThread: () => string,
): Promise<string> {
  const input: StateReadProveInput = { treeId, root: root.toString('hex'), queryKeys };
  const answer = await runInWorker<ChainReadJsonOutput>(pool, stateReadProve.name, input);
  return answer.stale ? inMainThread() : answer.json;
}
