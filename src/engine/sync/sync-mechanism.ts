import type { Block } from '../../chain/block.js';
import type { Logger } from '../../logger.js';
import type { SyncChain } from './sync-chain.js';
import type { SyncRequests } from './sync-peers.js';
import type { SyncNetwork } from './sync-network.js';

/** What one synchronization attempt works with. */
export interface SyncContext {
  readonly chain: SyncChain;
  readonly requests: SyncRequests;
  readonly network: SyncNetwork;
  readonly logger: Logger;
  /** Unix seconds. */
  readonly now: () => number;
  readonly random: () => number;
  /** True once the node is stopping: a mechanism stops between two blocks. */
  readonly stopping: () => boolean;
}

/** A way to reach a chain with priority (lisk-sdk `synchronizer/base_synchronizer.ts`). */
export interface SyncMechanism {
  /** The name lisk-sdk logs ("Triggering: …"). */
  readonly name: string;
  isValidFor(context: SyncContext, received: Block, peerId: string): boolean;
  run(context: SyncContext, received: Block, peerId: string): Promise<void>;
}
