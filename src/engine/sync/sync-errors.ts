import { BasaltError } from '../../errors.js';

/**
 * How a synchronization attempt ends early, after lisk-sdk 6.1's
 * `framework/src/engine/consensus/synchronizer/errors.ts`: run again, stop, or the same with a
 * penalty for the peer that served bad data. Thrown inside the synchronizer and handled by its
 * run loop; none of them reaches a caller of `Synchronizer.run`.
 */
export type SyncOutcome = 'restart' | 'abort';

export class SyncStopError extends BasaltError {
  constructor(
    readonly outcome: SyncOutcome,
    readonly reason: string,
    /** The peer to penalise (100 points: a ban), when the reason is data it served. */
    readonly peerId?: string,
  ) {
    super(
      outcome === 'restart' ? 'ERR_SYNC_RESTART' : 'ERR_SYNC_ABORT',
      `${outcome === 'restart' ? 'Restart' : 'Abort'} synchronization: ${reason}`,
    );
  }
}

export const restartSync = (reason: string, penalisedPeer?: string): SyncStopError => new SyncStopError('restart', reason, penalisedPeer);
export const abortSync = (reason: string, penalisedPeer?: string): SyncStopError => new SyncStopError('abort', reason, penalisedPeer);

/** A block fetched from a peer failed validation or execution (handled inside a mechanism). */
export class SyncBlockProcessingError extends BasaltError {
  constructor(cause: unknown) {
    super('ERR_SYNC_BLOCK_PROCESSING', 'A block fetched from a peer could not be applied.', { cause });
  }
}

/** A peer's answer that cannot be used (counted as a failed request, as a timeout is). */
export class UnusableAnswerError extends BasaltError {
  constructor(message: string) {
    super('ERR_SYNC_UNUSABLE_ANSWER', message);
  }
}
