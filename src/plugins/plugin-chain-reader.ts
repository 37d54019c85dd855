/**
 * The read-only chain view plugins get: the chain store's getters and the committed module
 * state, and nothing that writes. Block lookups answer `undefined` for an unknown block instead
 * of throwing, so a plugin racing a chain reorganisation sees "gone", not an exception.
 */
import type { ChainStore } from '../chain/chain-store.js';
import { NotFoundError, StoreError } from '../errors.js';
import type { StateReader } from '../state/state-view.js';
import type { PluginChainReader } from './plugin.js';

export type ChainStoreGetters = Pick<
  ChainStore,
  | 'tipHeight'
  | 'finalizedHeight'
  | 'genesisHeight'
  | 'getHeaderByHeight'
  | 'getHeaderById'
  | 'getBlockByHeight'
  | 'getBlockById'
  | 'getTransaction'
  | 'getEvents'
>;

/** A frozen reader over `chainStore` and the committed state that `moduleState` returns. */
export function createPluginChainReader(chainID: Buffer, chainStore: ChainStoreGetters, moduleState: () => StateReader): PluginChainReader {
  const id = Buffer.from(chainID);
  return Object.freeze({
    get chainID() {
      return Buffer.from(id);
    },
    tipHeight: () => chainStore.tipHeight(),
    finalizedHeight: () => chainStore.finalizedHeight(),
    genesisHeight: () => chainStore.genesisHeight(),
    tipHeader: () => {
      const header = chainStore.getHeaderByHeight(chainStore.tipHeight());
      if (header === undefined) throw new StoreError('Store inconsistency: the tip header is missing.');
      return header;
    },
    getHeaderByHeight: (height: number) => chainStore.getHeaderByHeight(height),
    getHeaderByID: (blockID: Buffer) => chainStore.getHeaderById(blockID),
    getBlockByHeight: (height: number) => {
      try {
        return chainStore.getBlockByHeight(height);
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
    },
    getBlockByID: (blockID: Buffer) => chainStore.getBlockById(blockID),
    getTransactionByID: (transactionID: Buffer) => chainStore.getTransaction(transactionID),
    getEvents: (height: number) => chainStore.getEvents(height),
    stateReader: () => readOnly(moduleState()),
  });
}

/** Only the reading half of the reader, so a cast cannot reach a writer behind it. */
function readOnly(state: StateReader): StateReader {
  return {
    get: (key) => state.get(key),
    has: (key) => state.has(key),
    iterate: (options) => state.iterate(options),
  };
}
