/**
 * Worker task: the state tree's batch update for one block (StateTree.prepare, in a worker). The
 * raw state keys and values travel packed; the worker hashes them into SMT keys and leaf values
 * (LIP 0040) and runs the native update on the main thread's shared tree, which it only
 * reads. The write set comes back as the addon's flat buffers (structured clone copies them: a
 * few memcpys, where an object per node would cost more than the update); the main thread
 * applies it once the block is committed.
 */
import { bufferView } from '../../codec/buffer-view.js';
import { STATE_KEY_LENGTH } from '../../merkle/index.js';
import { stateTreeLeaves } from '../../state/state-tree.js';
import { NotFoundError } from '../../errors.js';
import { PackedSmtUpdateResult } from '../../merkle/native/index.js';
import type { WorkerTask } from '../worker-task.js';
import { unpackBytes, type PackedBytes } from './packed-bytes.js';
import { sharedTree } from './shared-tree.js';

export interface StateTreeUpdateInput {
  /** StateTree.shareId() of the node's state tree. */
  readonly treeId: number;
  /** The root the update starts from (the tree's current root when the main thread asked). */
  readonly root: Uint8Array;
  /** Raw state keys. */
  readonly keys: PackedBytes;
  /** Raw state values; a deleted key has `deleted[i]` = 1 (its value is empty here). */
  readonly values: PackedBytes;
  readonly deleted: Uint8Array;
}

export type StateTreeUpdateOutput =
  | {
      readonly ok: true;
      readonly root: Uint8Array;
      readonly writeHashes: Uint8Array;
      readonly writeData: Uint8Array;
      readonly writeEnds: Uint32Array;
      readonly removed: Uint8Array;
    }
  /** The tree has moved on (the start root's nodes are gone) or no thread holds it any more. */
  | { readonly ok: false };

export const stateTreeUpdate: WorkerTask<StateTreeUpdateInput, StateTreeUpdateOutput> = {
  name: 'state-tree-update',
  run(input: StateTreeUpdateInput): StateTreeUpdateOutput {
    const tree = sharedTree(input.treeId, STATE_KEY_LENGTH);
    if (tree === undefined) return { ok: false };
    const values = unpackBytes(input.values);
    const entries = unpackBytes(input.keys).map((key, i) => ({
      key: bufferView(key),
      value: input.deleted[i] === 1 ? undefined : bufferView(values[i] as Uint8Array),
    }));
    const { keys, hashes } = stateTreeLeaves(entries);
    let result: ReturnType<typeof tree.update>;
    try {
      result = tree.update(Buffer.from(input.root), keys, hashes);
    } catch (error) {
      if (error instanceof NotFoundError) return { ok: false };
      throw error;
    }
    if (!(result instanceof PackedSmtUpdateResult)) {
      // An empty batch: nothing written, the root unchanged.
      return {
        ok: true,
        root: result.root,
        writeHashes: new Uint8Array(0),
        writeData: new Uint8Array(0),
        writeEnds: new Uint32Array(0),
        removed: new Uint8Array(0),
      };
    }
    return {
      ok: true,
      root: result.root,
      writeHashes: result.writeHashes,
      writeData: result.writeData,
      writeEnds: result.writeEnds,
      removed: result.removedHashes,
    };
  },
};
