import type { ChainStore } from '../../chain/chain-store.js';
import { codec } from '../../codec/index.js';
import { commitRemovalHeight, type CommitPool, type SingleCommit } from '../../engine/consensus/commit-pool.js';
import { ConsensusError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { StateReader } from '../../state/state-view.js';
import { PENALTY_BAN } from '../constants.js';
import type { P2pCallContext } from '../handlers.js';
import type { P2pNetwork } from '../p2p-network.js';
import { singleCommitSchema, singleCommitsMessageSchema } from '../schemas.js';

export interface CommitGossipOptions {
  readonly network: () => P2pNetwork | undefined;
  readonly commitPool: CommitPool;
  readonly chainStore: ChainStore;
  readonly engineState: () => StateReader;
  readonly chainID: Buffer;
  readonly minimumCertifyHeight: number;
  /** Seconds between two gossip rounds: half the block time, as lisk-sdk's commit pool job. */
  readonly intervalSeconds: number;
  readonly logger: Logger;
}

/**
 * Single commits over P2P (LIP 0061; lisk-sdk `framework/src/engine/consensus/network_endpoint.ts`
 * and the commit pool's job): every half block time the pool's commits not yet gossiped go to
 * peers in one `postSingleCommitMessages` (sent even when empty, as lisk-sdk does); received ones
 * are checked and pooled, so that certificates and aggregate commits form across nodes. An
 * undecodable message, or a commit from an inactive validator or with a bad signature, costs its
 * sender the ban penalty.
 */
export class CommitGossip {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: CommitGossipOptions) {}

  start(): void {
    this.timer ??= setInterval(() => this.gossip(), this.options.intervalSeconds * 1000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  gossip(): void {
    const network = this.options.network();
    if (!network) return;
    const { commitPool, chainStore, engineState } = this.options;
    const commits = commitPool.selectForGossip(engineState(), chainStore.tipHeight());
    const encoded = commits.map((commit) => codec.encode(singleCommitSchema, commit));
    network.send('postSingleCommitMessages', codec.encode(singleCommitsMessageSchema, { commits: encoded }));
  }

  /** The `postSingleCommitMessages` message handler. */
  readonly onCommits = (data: Buffer | undefined, context: P2pCallContext): void => {
    const { commitPool, chainStore, engineState, chainID, minimumCertifyHeight, logger } = this.options;
    let commits: SingleCommit[];
    try {
      const { commits: encoded } = codec.decode<{ commits: Buffer[] }>(singleCommitsMessageSchema, data ?? Buffer.alloc(0));
      commits = encoded.map((bytes) => codec.decode<SingleCommit>(singleCommitSchema, bytes));
    } catch (error) {
      logger.debug({ err: error, peerId: context.peerId }, 'Undecodable single commits');
      context.penalize(PENALTY_BAN);
      return;
    }
    const state = engineState();
    const removalHeight = commitRemovalHeight(chainStore, minimumCertifyHeight);
    const tipHeight = chainStore.tipHeight();
    for (const commit of commits) {
      try {
        const header = chainStore.getHeaderByHeight(commit.height);
        if (commitPool.validate(state, commit, { removalHeight, tipHeight, header, chainID })) commitPool.add(commit, false);
      } catch (error) {
        if (!(error instanceof ConsensusError)) throw error;
        logger.debug({ err: error, peerId: context.peerId, height: commit.height }, 'Invalid single commit');
        context.penalize(PENALTY_BAN);
        return;
      }
    }
  };
}
