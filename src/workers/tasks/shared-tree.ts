/**
 * A worker's handles on SMT node stores shared by the main thread (NativeSmtNodeStore.share):
 * the node's state tree is one such store, and tasks read it where it is instead of copying it.
 */
import { nativeAddon } from '../../native/index.js';
import { NativeSmtNodeStore, NativeSparseMerkleTree } from '../../merkle/native/index.js';

/** This thread's trees over shared stores, by share id and key length. */
const attached = new Map<string, NativeSparseMerkleTree>();

/** The tree over the store shared under `id`, or undefined when no thread holds it any more. */
export function sharedTree(id: number, keyLength: number): NativeSparseMerkleTree | undefined {
  const name = `${id}/${keyLength}`;
  let tree = attached.get(name);
  if (tree === undefined && nativeAddon !== undefined) {
    const store = NativeSmtNodeStore.attach(nativeAddon, id);
    if (store === undefined) return undefined;
    tree = new NativeSparseMerkleTree(store, keyLength, nativeAddon);
    attached.set(name, tree);
  }
  return tree;
}
