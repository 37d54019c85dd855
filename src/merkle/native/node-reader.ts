import type { SmtNodeStore } from '../smt/index.js';
import type { NativeNodeReader } from '../../native/native-addon.js';

const HASH_LENGTH = 32;

/**
 * The callback through which the native SMT reads `store`. The addon asks for a whole tree level
 * at a time (see native/src/smt/prefetch.rs), so a batch costs a few dozen calls, not one per
 * node. Each hash is handed to the store as its own view: a store may keep what it is given.
 */
export function nodeReaderFor(store: SmtNodeStore): NativeNodeReader {
  return (hashes: Buffer, count: number): (Buffer | undefined)[] => {
    const nodes = new Array<Buffer | undefined>(count);
    for (let i = 0, at = 0; i < count; i += 1, at += HASH_LENGTH) {
      nodes[i] = store.get(hashes.subarray(at, at + HASH_LENGTH));
    }
    return nodes;
  };
}
