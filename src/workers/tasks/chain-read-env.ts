/**
 * The worker's read-only view of the node's LMDB environment (only the main thread
 * writes; workers open the same environment read-only). Opened lazily, once per worker thread
 * and data directory, with the path and options of node.ts `openChain` (an environment opened
 * with other options, mapSize above all, could disagree with the writer on the map), and the
 * stores' own constructors, so the named databases are the main thread's.
 */
import { open, type RootDatabase } from 'lmdb';
import { ChainStore } from '../../chain/chain-store.js';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../../chain/lmdb-environment.js';

export { CHAIN_ENV_OPTIONS, chainEnvPath };

/** The tip the main thread saw when it sent a request: the answer is as of this block. */
export interface ReadTip {
  readonly height: number;
  /** The tip block's ID. */
  readonly id: Uint8Array;
}

export interface ChainReadView {
  readonly env: RootDatabase;
  readonly chainStore: ChainStore;
}

const views = new Map<string, ChainReadView>();

/** This thread's read-only view of `dataPath`, opened on first use. */
export function chainReadView(dataPath: string): ChainReadView {
  let view = views.get(dataPath);
  if (view === undefined) {
    const env = open({ path: chainEnvPath(dataPath), ...CHAIN_ENV_OPTIONS, readOnly: true });
    // ChainStore only opens its named databases when constructed; nothing writes.
    view = { env, chainStore: new ChainStore(env) };
    views.set(dataPath, view);
  }
  return view;
}

/**
 * The view of `dataPath` at a snapshot that contains `tip`, or undefined when `tip` is no longer
 * the block at its height (it was reverted after the main thread sent the request): the caller
 * then answers "stale" and the main thread reads again itself.
 *
 * lmdb-js renews a thread's read transaction on a later event turn; resetting it here makes the
 * snapshot include every commit the main thread made before it sent the request. All reads of
 * one task then run synchronously in that one snapshot, so they agree with each other.
 */
export function viewAtTip(dataPath: string, tip: ReadTip): ChainReadView | undefined {
  const view = chainReadView(dataPath);
  view.env.resetReadTxn();
  const height = view.chainStore.getHeightById(Buffer.from(tip.id.buffer, tip.id.byteOffset, tip.id.byteLength));
  return height === tip.height ? view : undefined;
}

/** Closes this thread's views (tests; a pool's workers end with the process). */
export async function closeChainReadViews(): Promise<void> {
  const open = [...views.values()];
  views.clear();
  for (const view of open) await view.env.close();
}
