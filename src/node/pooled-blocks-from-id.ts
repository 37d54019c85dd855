/**
 * getBlocksFromId answers built in the worker pool (src/workers/tasks/chain-read-blocks-from-id.ts),
 * on a read-only view of the node's LMDB environment, for the P2P procedures
 * (src/p2p/chain-procedures.ts `BlocksFromIdReader`). The network thread only sends the request
 * and hands the base64 text it gets back to the peer's socket.
 *
 * Each task carries the tip when the request arrived; the worker answers from a snapshot that
 * still holds that tip, never above it, so the answer is the one the network thread would have
 * built then. When the tip was reverted meanwhile, or the pool cannot run the task (closed while
 * the node stops, a thread that died), the reader answers undefined and the procedure builds the
 * answer itself on the chain as it is then.
 */
import type { BlockHeader } from '../chain/block-header.js';
import type { BlocksFromIdReader } from '../p2p/chain-procedures.js';
import { EncodedPayload } from '../p2p/envelopes.js';
import {
  chainReadBlocksFromId,
  type ChainReadBlocksFromIdInput,
  type ChainReadBlocksFromIdOutput,
} from '../workers/tasks/chain-read-blocks-from-id.js';
import type { TaskPriority } from '../workers/priority-task-queue.js';
import { type FallbackReason, WorkerPoolError } from '../workers/worker-pool.js';

export interface PooledBlocksFromIdOptions {
  /** Runs a registered worker task (WorkerPool). */
  readonly pool: {
    run(name: string, input: unknown, options: { readonly priority: TaskPriority }): Promise<unknown>;
    /** Counts the answers the network thread builds instead, as the other pooled paths do. */
    recordFallback?(task: string, reason: FallbackReason): void;
  };
  /** The data directory whose LMDB environment the workers open read-only. */
  readonly dataPath: string;
  /** The node's tip as the request finds it. */
  readonly tip: () => Pick<BlockHeader, 'height' | 'id'>;
}

/**
 * A reader that builds each answer in a worker. Peers that sync walk the same ranges, often at
 * the same moment: requests for the same block ID and the same tip while a task for them is
 * running share that task. A request from the tip itself (an empty answer) is left to the
 * procedure, which builds it for nothing.
 */
export function pooledBlocksFromIdReader(options: PooledBlocksFromIdOptions): BlocksFromIdReader {
  const running = new Map<string, Promise<EncodedPayload | undefined>>();
  return (blockId, height) => {
    const tip = options.tip();
    if (height >= tip.height) return Promise.resolve(undefined);
    const key = `${blockId.toString('hex')}@${tip.id.toString('hex')}`;
    let answer = running.get(key);
    if (answer === undefined) {
      // Copies: a view into a larger buffer would send the whole buffer to the thread.
      const input: ChainReadBlocksFromIdInput = {
        dataPath: options.dataPath,
        tip: { height: tip.height, id: Uint8Array.from(tip.id) },
        fromId: Uint8Array.from(blockId),
      };
      answer = buildInWorker(options.pool, input).finally(() => running.delete(key));
      running.set(key, answer);
    }
    return answer;
  };
}

/** The task's answer; undefined when the pool could not run it or the chain moved under it. */
async function buildInWorker(
  pool: PooledBlocksFromIdOptions['pool'],
  input: ChainReadBlocksFromIdInput,
): Promise<EncodedPayload | undefined> {
  let output: ChainReadBlocksFromIdOutput;
  try {
    // Behind consensus work, ahead of RPC reads: the peer gives up after 2 s.
    output = (await pool.run(chainReadBlocksFromId.name, input, { priority: 'block-serving' })) as ChainReadBlocksFromIdOutput;
  } catch (error) {
    // The pool failed, not the task: the network thread can still answer. A failing task (a
    // store inconsistency) fails the request as it would have on the network thread.
    if (error instanceof WorkerPoolError) {
      pool.recordFallback?.(chainReadBlocksFromId.name, 'pool_failed');
      return undefined;
    }
    throw error;
  }
  return output.status === 'answered' ? new EncodedPayload(output.base64) : undefined;
}
