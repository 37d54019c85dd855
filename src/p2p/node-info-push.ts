/**
 * Pushing our node info to peers (postNodeInfo, `elements/lisk-p2p/src/peer_pool.ts`
 * applyNodeInfo): once to each new peer and again after every change. A Lisk peer charges 10 for
 * every postNodeInfo beyond 4 in 10 s (`peer/base.ts`), so pushes to one peer are kept within that;
 * a push that would exceed it waits, and then sends whatever the node info is by that time.
 */
import { PEER_STATUS_MESSAGE_RATE } from './constants.js';
import type { Peer } from './peer.js';
import type { SentRateBudget } from './rate-limits.js';

const POST_NODE_INFO = 'postNodeInfo';

export class NodeInfoPusher {
  private readonly deferred = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly budget: SentRateBudget,
    /** The current encoded node info. */
    private readonly encoded: () => Buffer,
    /** Whether `peer` is still the connection the push was meant for. */
    private readonly isCurrent: (peer: Peer) => boolean,
  ) {}

  push(peer: Peer): void {
    if (this.deferred.has(peer.id)) return; // the deferred push will carry the latest node info
    const wait = this.budget.waitFor(POST_NODE_INFO, peer.id, PEER_STATUS_MESSAGE_RATE);
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.deferred.delete(peer.id);
        if (this.isCurrent(peer)) this.push(peer);
      }, wait);
      timer.unref();
      this.deferred.set(peer.id, timer);
      return;
    }
    this.budget.take(POST_NODE_INFO, peer.id, PEER_STATUS_MESSAGE_RATE);
    try {
      peer.send(POST_NODE_INFO, this.encoded());
    } catch {
      // the socket closed meanwhile; its close handling removes the peer
    }
  }

  /** Forgets a peer's deferred push (it disconnected). */
  cancel(peerId: string): void {
    clearTimeout(this.deferred.get(peerId));
    this.deferred.delete(peerId);
  }

  cancelAll(): void {
    for (const timer of this.deferred.values()) clearTimeout(timer);
    this.deferred.clear();
  }
}
