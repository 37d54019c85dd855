/**
 * StateTreeUpdater on the worker pool: a block's state-tree update computed in a worker on the
 * main thread's shared native tree (task state-tree-update), so the main thread can compute the
 * block's other roots meanwhile, or serve the network. A pool that cannot run the task (closed,
 * a thread that died) or a tree that moved on gives undefined, and StateDb computes the update
 * itself: the result never depends on where it was computed.
 */
import { bufferView } from '../codec/buffer-view.js';
import { PackedSmtUpdateResult } from '../merkle/native/index.js';
import type { StateChange } from '../state/overlay-state.js';
import type { PreparedStateUpdate, StateTreeUpdater } from '../state/state-tree.js';
import { packBytes, transferablesOf } from './tasks/packed-bytes.js';
import { stateTreeUpdate, type StateTreeUpdateInput, type StateTreeUpdateOutput } from './tasks/state-tree-update.js';
import { WorkerPoolError, type WorkerPool } from './worker-pool.js';

const EMPTY = new Uint8Array(0);

export interface PoolStateTreeUpdaterOptions {
  /**
   * Smallest batch sent to the pool (default 256): below, the round trip (some 50-100 µs, with
   * the changes packed and copied) costs about what the native update itself does.
   */
  readonly minChanges?: number;
}

export class PoolStateTreeUpdater implements StateTreeUpdater {
  readonly minChanges: number;

  constructor(
    private readonly pool: Pick<WorkerPool, 'run'> & Partial<Pick<WorkerPool, 'recordFallback'>>,
    options: PoolStateTreeUpdaterOptions = {},
  ) {
    this.minChanges = options.minChanges ?? 256;
  }

  async update(treeId: number, root: Buffer, changes: readonly StateChange[]): Promise<PreparedStateUpdate | undefined> {
    const keys = packBytes(changes.map((change) => change.key));
    const values = packBytes(changes.map((change) => change.value ?? EMPTY));
    const deleted = Uint8Array.from(changes, (change) => (change.value === undefined ? 1 : 0));
    const input: StateTreeUpdateInput = { treeId, root, keys, values, deleted };
    let output: StateTreeUpdateOutput;
    try {
      // A block's apply waits for it: consensus class.
      output = await this.pool.run<StateTreeUpdateOutput>(stateTreeUpdate.name, input, {
        priority: 'consensus',
        transferList: [...transferablesOf(keys, values), deleted.buffer],
      });
    } catch (error) {
      if (error instanceof WorkerPoolError) {
        this.pool.recordFallback?.(stateTreeUpdate.name, 'pool_failed');
        return undefined;
      }
      throw error;
    }
    if (!output.ok) {
      this.pool.recordFallback?.(stateTreeUpdate.name, 'stale_tree');
      return undefined;
    }
    return new PackedSmtUpdateResult(
      bufferView(output.root),
      bufferView(output.writeHashes),
      bufferView(output.writeData),
      output.writeEnds,
      bufferView(output.removed),
    );
  }
}
