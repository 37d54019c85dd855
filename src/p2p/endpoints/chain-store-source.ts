import { encodedBlockAt, encodedBlocksBetween } from '../../chain/blocks-from-id.js';
import type { ChainStore } from '../../chain/chain-store.js';
import { StoreError } from '../../errors.js';
import type { TransactionPool } from '../../engine/txpool/transaction-pool.js';
import type { P2pChainSource, P2pTransactionSource } from '../chain-procedures.js';

/**
 * The node's chain store as the blocks peers ask for (lisk-sdk
 * `framework/src/engine/consensus/network_endpoint.ts` reads them from its storage the same way).
 * These reads run on the main thread; a node with a worker pool builds getBlocksFromId answers in
 * a worker instead (`BlocksFromIdReader`), and comes here when the pool cannot.
 */
export function chainStoreSource(chainStore: ChainStore): P2pChainSource {
  return {
    lastBlock: () => encodedBlockAt(chainStore, chainStore.tipHeight()),
    heightOf: (blockId) => chainStore.getHeightById(blockId),
    finalizedHeight: () => chainStore.finalizedHeight(),
    tipId: () => {
      const header = chainStore.getHeaderByHeight(chainStore.tipHeight());
      if (!header) throw new StoreError('Store inconsistency: the tip header is missing.');
      return header.id;
    },
    blocksBetween: (from, to) => encodedBlocksBetween(chainStore, from, to),
  };
}

/**
 * The transactions peers ask for (lisk-sdk `framework/src/engine/generator/network_endpoint.ts`):
 * the pool's processable ones, or by ID from the pool first, then from the chain.
 */
export function poolTransactionSource(pool: TransactionPool, chainStore: ChainStore): P2pTransactionSource {
  return {
    processable: (limit) => {
      const encoded: Uint8Array[] = [];
      for (const transactions of pool.getProcessableTransactions().values()) {
        for (const transaction of transactions) {
          if (encoded.length >= limit) return encoded;
          encoded.push(transaction.bytes);
        }
      }
      return encoded;
    },
    byIds: (ids) => {
      const encoded: Uint8Array[] = [];
      for (const id of ids) {
        const transaction = pool.get(id) ?? chainStore.getTransaction(id);
        if (transaction) encoded.push(transaction.bytes);
      }
      return encoded;
    },
  };
}
