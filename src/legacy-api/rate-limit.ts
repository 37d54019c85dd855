/**
 * Per-client request limit of the forging toggles: each one costs a PBKDF2 run of about a second
 * on the thread pool and is a password guess, so one client may make only `max` of them per
 * window. A fixed window shared by all clients, as express-rate-limit's memory store (which Lisk
 * Core 3.x's HTTP API plugin used, `limits.max`/`limits.windowMs`): every count starts again when
 * the window ends, so memory holds at most the clients seen in one window.
 */

export interface RateLimitConfig {
  /** Requests per client and window; 0 turns the limit off. */
  readonly max: number;
  readonly windowMs: number;
}

/** Thirty toggles a minute: room for an operator's scripts, few guesses for a password guesser. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { max: 30, windowMs: 60_000 };

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, please try again later.';

export interface RateDecision {
  readonly allowed: boolean;
  /** Whole seconds until the window ends (for Retry-After). */
  readonly retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly counts = new Map<string, number>();
  private windowStart: number;

  constructor(
    private readonly config: RateLimitConfig,
    private readonly now: () => number = Date.now,
  ) {
    this.windowStart = now();
  }

  /** Counts one request of `client`. */
  take(client: string): RateDecision {
    const now = this.now();
    if (now - this.windowStart >= this.config.windowMs) {
      this.counts.clear();
      this.windowStart = now;
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((this.windowStart + this.config.windowMs - now) / 1000));
    if (this.config.max === 0) return { allowed: true, retryAfterSeconds };
    const count = (this.counts.get(client) ?? 0) + 1;
    this.counts.set(client, count);
    return { allowed: count <= this.config.max, retryAfterSeconds };
  }
}
