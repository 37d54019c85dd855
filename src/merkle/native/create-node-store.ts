import { InMemorySmtNodeStore } from '../smt/index.js';
import { nativeAddon } from '../../native/addon.js';
import { NativeSmtNodeStore } from './native-smt-node-store.js';

/** The in-memory node store API both stores share (InMemorySmtNodeStore's). */
export type MemoryNodeStore = InMemorySmtNodeStore | NativeSmtNodeStore;

/**
 * An in-memory SMT node store: native memory when the addon is loaded (read by the native tree
 * without calls into JavaScript), InMemorySmtNodeStore otherwise. Same methods either way.
 */
export function createInMemoryNodeStore(options: { readonly native?: boolean } = {}): MemoryNodeStore {
  if (nativeAddon !== undefined && options.native !== false) return new NativeSmtNodeStore(nativeAddon);
  return new InMemorySmtNodeStore();
}
