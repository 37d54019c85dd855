import { FormatError, InvalidParamsError, NotFoundError } from '../../errors.js';
import { SparseMerkleTree } from '../smt/index.js';
import type { SmtNodeStore, SmtProof, SmtQuery, SmtUpdateResult } from '../smt/index.js';
import { normalizeRoot } from '../smt/empty-hash.js';
import type { NativeAddon, NativeMissingNode, NativeNodes, NativeProofOutput } from '../../native/native-addon.js';
import { NativeSmtNodeStore } from './native-smt-node-store.js';
import { nodeReaderFor } from './node-reader.js';
import { PackedSmtUpdateResult, splitHashes } from './packed-update-result.js';

const HASH_LENGTH = 32;

/**
 * Sparse Merkle tree (LIP 0039 as lisk-db implements it; docs/protocol/merkle-trees.md) whose batch
 * update and proof generation run in the native addon (native/src/smt). It is a SparseMerkleTree in
 * every respect — same constructor, same results, same errors — and only `update` and `prove`
 * differ, in speed: the addon computes the same roots, the same write sets in the same order and
 * the same proofs (test/unit/native compares them on the fixtures and on random batches).
 *
 * Over a NativeSmtNodeStore the addon reads the nodes directly. Over any other SmtNodeStore
 * (LMDB, InMemorySmtNodeStore) it reads them through `store.get`, a tree level at a time; that is
 * correct for every store but much slower, as each node read from JavaScript costs about a
 * microsecond. The store is never written: the write set is returned, as by SparseMerkleTree.
 */
export class NativeSparseMerkleTree extends SparseMerkleTree {
  private readonly nodes: NativeNodes;

  constructor(
    store: SmtNodeStore,
    keyLength: number,
    private readonly addon: NativeAddon,
  ) {
    super(store, keyLength);
    this.nodes = store instanceof NativeSmtNodeStore ? store.handle : nodeReaderFor(store);
  }

  /**
   * SparseMerkleTree.update (LIP 0039 "Root Hash Calculation" + "Removing a Leaf Node")
   * computed natively. The result's `writes` and `removed` are built on first
   * read (see PackedSmtUpdateResult).
   */
  override update(root: Uint8Array, keys: readonly Uint8Array[], values: readonly Uint8Array[]): SmtUpdateResult {
    if (keys.length !== values.length) {
      throw new InvalidParamsError(`SMT update needs one value per key (${keys.length} keys, ${values.length} values).`);
    }
    const start = normalizeRoot(root);
    if (keys.length === 0) return { root: start, writes: [], removed: [] };
    this.checkKeys(keys, 'key');
    // A root of another length cannot name a stored node; the TypeScript tree reports that.
    if (start.length !== HASH_LENGTH) return super.update(root, keys, values);

    const output = this.addon.smtUpdate(start, keys, values, this.keyLength, this.nodes);
    if (isMissingNode(output)) throw missingNodeError(output);
    return new PackedSmtUpdateResult(output.root ?? start, output.writeHashes, output.writeData, output.writeEnds, output.removed);
  }

  /** SparseMerkleTree.prove (LIP 0039 "Proof Construction") computed natively. */
  override prove(root: Uint8Array, queryKeys: readonly Uint8Array[]): SmtProof {
    if (queryKeys.length === 0) return { siblingHashes: [], queries: [] };
    this.checkKeys(queryKeys, 'query key');
    const start = normalizeRoot(root);
    if (start.length !== HASH_LENGTH) return super.prove(root, queryKeys);

    const output = this.addon.smtProve(start, queryKeys, this.keyLength, this.nodes);
    if (isMissingNode(output)) throw missingNodeError(output);
    return unpackProof(output, this.keyLength);
  }

  private checkKeys(keys: readonly Uint8Array[], what: string): void {
    for (const key of keys) {
      if (key.length !== this.keyLength) {
        throw new FormatError(`SMT ${what} must be ${this.keyLength} bytes, got ${key.length}.`);
      }
    }
  }
}

function isMissingNode(output: object): output is NativeMissingNode {
  return 'missingNode' in output;
}

/** The error the TypeScript tree throws for a node its store lacks (load-node.ts). */
function missingNodeError({ missingNode }: NativeMissingNode): NotFoundError {
  return new NotFoundError(`SMT node ${missingNode.toString('hex')} is not in the node store.`);
}

function unpackProof(output: NativeProofOutput, keyLength: number): SmtProof {
  const { keys, values, valueEnds, bitmaps, bitmapEnds } = output;
  const queries = new Array<SmtQuery>(valueEnds.length);
  let valueStart = 0;
  let bitmapStart = 0;
  for (let i = 0; i < valueEnds.length; i += 1) {
    const valueEnd = valueEnds[i] as number;
    const bitmapEnd = bitmapEnds[i] as number;
    queries[i] = {
      key: keys.subarray(i * keyLength, (i + 1) * keyLength),
      value: values.subarray(valueStart, valueEnd),
      bitmap: bitmaps.subarray(bitmapStart, bitmapEnd),
    };
    valueStart = valueEnd;
    bitmapStart = bitmapEnd;
  }
  return { siblingHashes: splitHashes(output.siblingHashes), queries };
}
