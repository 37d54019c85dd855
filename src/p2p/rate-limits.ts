/**
 * Per-peer rate limits of the Lisk engine (`framework/src/engine/consensus/network_endpoint.ts`,
 * `engine/generator/network_endpoint.ts`, `engine/legacy/network_endpoint.ts`): each procedure or
 * message name may arrive `limit` times per 10 s window from one peer; every call beyond costs the
 * peer 10 reputation. lisk-sdk resets all counters together every 10 s
 * (`engine/network/base_network_endpoint.ts`), a fixed window that this file keeps for what we
 * receive. For what we send, a sliding window is used instead: it keeps us within the peer's
 * limit whatever the phase of the peer's fixed window.
 */
import { ENGINE_RATE_WINDOW } from './constants.js';

/** Calls allowed per 10 s per peer, by procedure or message name. Names not listed are unlimited. */
export const ENGINE_RATE_LIMITS: Readonly<Record<string, number>> = {
  getLastBlock: 10,
  getHighestCommonBlock: 10,
  getBlocksFromId: 100,
  getLegacyBlocksFromId: 100,
  getTransactions: 3,
  postTransactionsAnnouncement: 3,
  postSingleCommitMessages: 10,
};

/** What we receive: counts per name and peer, all reset together when the window ends. */
export class ReceivedRateCounter {
  private counts = new Map<string, number>();
  private windowEnd: number;

  constructor(
    private readonly windowMs = ENGINE_RATE_WINDOW,
    now = Date.now(),
  ) {
    this.windowEnd = now + windowMs;
  }

  /** Counts one call; true when it exceeds the limit (the caller charges the penalty). */
  exceeds(name: string, peerId: string, limit: number, now = Date.now()): boolean {
    if (now >= this.windowEnd) {
      this.counts = new Map();
      this.windowEnd = now + this.windowMs;
    }
    const key = `${name} ${peerId}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count > limit;
  }
}

/** What we send: timestamps of recent calls per name and peer, so that any 10 s span holds at most `limit`. */
export class SentRateBudget {
  private readonly sent = new Map<string, number[]>();

  constructor(private readonly windowMs = ENGINE_RATE_WINDOW) {}

  /** Milliseconds until one more call fits (0: now). */
  waitFor(name: string, peerId: string, limit: number, now = Date.now()): number {
    const times = this.recent(`${name} ${peerId}`, now);
    return times.length < limit ? 0 : times[times.length - limit]! + this.windowMs - now;
  }

  /** Records a call when it fits and returns true; false (nothing recorded) otherwise. */
  take(name: string, peerId: string, limit: number, now = Date.now()): boolean {
    if (this.waitFor(name, peerId, limit, now) > 0) return false;
    this.recent(`${name} ${peerId}`, now).push(now);
    return true;
  }

  /** Forgets a peer (after it disconnects). */
  forget(peerId: string): void {
    for (const key of this.sent.keys()) {
      if (key.endsWith(` ${peerId}`)) this.sent.delete(key);
    }
  }

  private recent(key: string, now: number): number[] {
    let times = this.sent.get(key);
    if (times === undefined) {
      times = [];
      this.sent.set(key, times);
    }
    while (times.length > 0 && times[0]! <= now - this.windowMs) times.shift();
    return times;
  }
}
