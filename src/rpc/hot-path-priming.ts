/**
 * Runs the RPC hot path in-process before the server listens: read-only requests that the
 * registry names (a block by height, the last block) go through the dispatcher and the answer
 * writer for a bounded time, so that V8 has profiled and optimised that code before the first
 * client arrives. Without it the first second of service runs interpreted code, and V8's
 * optimising compiler runs on background threads that, on a node pinned to one core, take that
 * core from the main thread in the middle of the load: both show as the latency tail of the
 * first seconds after start.
 *
 * Nothing a client can see changes: the requests only read, and what they cache (a block's JSON)
 * is exactly what the first client request, or the idle warm-up, would have cached. The
 * transports' counters are not touched (the requests use the bare dispatcher). The cost is the
 * budget below, paid once before the port opens.
 */
import { answerPayload } from './answer-bytes.js';
import { settleArrayBufferDetaching } from './array-buffer-detaching.js';
import type { RpcDispatcher } from './dispatcher.js';

/** The most main-thread time priming may take before the server listens. */
export const PRIMING_BUDGET_MS = 120;
/** Requests after which priming stops even within its budget (a fast machine is done sooner). */
export const PRIMING_MAX_REQUESTS = 12_000;

export interface PrimingReport {
  readonly requests: number;
  readonly ms: number;
}

/**
 * Sends `bodies` to `dispatcher` round after round until the budget or the request bound is
 * reached; answers are turned into the bytes a transport would send, then dropped. An answer
 * that only comes later (a method served by the worker pool) is left to finish on its own.
 */
export function primeHotPath(
  dispatcher: Pick<RpcDispatcher, 'dispatchAnswer'>,
  bodies: readonly string[],
  budgetMs = PRIMING_BUDGET_MS,
  maxRequests = PRIMING_MAX_REQUESTS,
): PrimingReport {
  // Before anything is compiled here: the transports' first request would otherwise undo it.
  settleArrayBufferDetaching();
  const started = performance.now();
  const until = started + budgetMs;
  let requests = 0;
  if (bodies.length > 0) {
    while (requests < maxRequests && performance.now() < until) {
      const answer = dispatcher.dispatchAnswer(bodies[requests % bodies.length] as string);
      requests += 1;
      if (answer instanceof Promise) answer.catch(() => undefined);
      else if (answer !== undefined) answerPayload(answer);
    }
  }
  return { requests, ms: performance.now() - started };
}
