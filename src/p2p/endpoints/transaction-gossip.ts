import type { ChainStore } from '../../chain/chain-store.js';
import { Transaction } from '../../chain/transaction.js';
import { codec } from '../../codec/index.js';
import type { TransactionPool } from '../../engine/txpool/transaction-pool.js';
import type { Logger } from '../../logger.js';
import { PENALTY_BAN } from '../constants.js';
import type { P2pCallContext } from '../handlers.js';
import type { P2pNetwork } from '../p2p-network.js';
import { getTransactionsRequestSchema, getTransactionsResponseSchema, postTransactionsAnnouncementSchema } from '../schemas.js';

/** lisk-sdk's broadcaster: IDs announced every 5 s, at most 100 per announcement. */
export const ANNOUNCE_INTERVAL_MS = 5_000;
const IDS_PER_ANNOUNCEMENT = 100;

export interface TransactionGossipOptions {
  readonly network: () => P2pNetwork | undefined;
  readonly pool: TransactionPool;
  readonly chainStore: ChainStore;
  /** Told of every announcement a peer sent (network_newTransaction). */
  readonly onAnnouncement?: (ids: readonly Buffer[]) => void;
  readonly logger: Logger;
}

/**
 * Transactions over P2P (lisk-sdk `framework/src/engine/generator/network_endpoint.ts` and
 * `broadcaster.ts`): new pool transactions are announced by ID in batches; an announcement from a
 * peer makes the node fetch the IDs it does not hold with `getTransactions` and add them to its
 * pool. An announcement or answer that breaks the schema costs the peer the ban penalty; a
 * transaction that fails verification is only dropped.
 */
export class TransactionGossip {
  private readonly queue = new Map<string, Buffer>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: TransactionGossipOptions) {}

  /** Queues a pool transaction for the next announcement. */
  enqueue(transaction: Transaction): void {
    this.queue.set(transaction.id.toString('hex'), transaction.id);
  }

  start(): void {
    this.timer ??= setInterval(() => this.announce(), ANNOUNCE_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Announces up to 100 queued IDs that are still in the pool. */
  announce(): void {
    const network = this.options.network();
    if (!network || this.queue.size === 0) return;
    const ids: Buffer[] = [];
    for (const [key, id] of this.queue) {
      if (ids.length === IDS_PER_ANNOUNCEMENT) break;
      this.queue.delete(key);
      if (this.options.pool.contains(id)) ids.push(id);
    }
    if (ids.length > 0)
      network.broadcast('postTransactionsAnnouncement', codec.encode(postTransactionsAnnouncementSchema, { transactionIds: ids }));
  }

  /** The `postTransactionsAnnouncement` message handler. */
  readonly onAnnouncement = async (data: Buffer | undefined, context: P2pCallContext): Promise<void> => {
    const { pool, chainStore, logger } = this.options;
    let ids: Buffer[];
    try {
      ids = codec.decode<{ transactionIds: Buffer[] }>(postTransactionsAnnouncementSchema, data ?? Buffer.alloc(0)).transactionIds;
    } catch (error) {
      logger.debug({ err: error, peerId: context.peerId }, 'Undecodable transaction announcement');
      return;
    }
    if (ids.length === 0 || ids.length > IDS_PER_ANNOUNCEMENT || ids.some((id) => id.length !== 32)) {
      context.penalize(PENALTY_BAN);
      return;
    }
    this.options.onAnnouncement?.(ids);
    const unknown = ids.filter((id) => !pool.contains(id) && chainStore.getTransaction(id) === undefined);
    const network = this.options.network();
    if (unknown.length === 0 || !network) return;
    let encoded: Buffer[];
    try {
      const request = codec.encode(getTransactionsRequestSchema, { transactionIds: unknown });
      const { data: answer } = await network.requestFromPeer(context.peerId, 'getTransactions', request);
      encoded = codec.decode<{ transactions: Buffer[] }>(getTransactionsResponseSchema, answer ?? Buffer.alloc(0)).transactions;
    } catch (error) {
      logger.debug({ err: error, peerId: context.peerId }, 'Could not fetch announced transactions');
      return;
    }
    for (const bytes of encoded) {
      let transaction: Transaction;
      try {
        transaction = Transaction.fromBytes(bytes);
        transaction.validate();
      } catch {
        context.penalize(PENALTY_BAN);
        return;
      }
      await pool.add(transaction);
    }
  };
}
