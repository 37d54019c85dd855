/**
 * Fills the block JSON caches with the newest blocks once the RPC server listens, before clients
 * ask for them: a public node is asked for its recent blocks most, and without this the first
 * request for each block pays for building its JSON (and, right after start, for code V8 has not
 * optimised yet), which shows as a latency tail in the first seconds of service. The work is cut
 * into slices of a few milliseconds with `setImmediate` between them, and it stops at a bound of
 * blocks and of cached characters, well inside the cache, so that it never evicts what requests
 * put there.
 *
 * It is work for idle time: a slice runs only when no message reached the server since the
 * previous look, else it looks again a few milliseconds later. Under load, a slice between two
 * batches of requests would hold every one of them up by its length (a slice is at least one
 * block, and the first blocks built after start run code V8 has not compiled yet: tens of
 * milliseconds on a busy core, measured), while the requests build the blocks they ask for
 * anyway; the warm-up resumes when the load pauses.
 *
 * Answers do not change: a warmed entry is exactly what the first request would have cached.
 */
import type { ChainJsonReader, ChainReader } from './chain-json-reader.js';

export interface BlockJsonWarmUpLimits {
  /** Most blocks to build, from the tip down (0: no warm-up). */
  readonly blocks: number;
  /** Stop once the block caches hold this many characters. */
  readonly chars: number;
}

/** Main-thread time one slice may take before it yields to the event loop. */
const SLICE_MS = 2;
/** How long the warm-up waits, while messages keep arriving, before it looks again. */
const BUSY_RETRY_MS = 5;

/**
 * Starts the warm-up and returns the function that stops it. Any failure (the store closed while
 * the node stops, say) ends it and goes to `onError`: it is an optimisation, never a fault.
 */
export function startBlockJsonWarmUp(
  reader: ChainJsonReader,
  store: Pick<ChainReader, 'tipHeight' | 'genesisHeight'>,
  limits: BlockJsonWarmUpLimits,
  onError: (error: unknown) => void,
  messagesReceived: () => number = () => 0,
): () => void {
  let stopped = limits.blocks <= 0 || limits.chars <= 0;
  let immediate: NodeJS.Immediate | undefined;
  let timeout: NodeJS.Timeout | undefined;
  let height = store.tipHeight();
  const lowest = Math.max(store.genesisHeight(), height - limits.blocks + 1);
  let messagesSeen = messagesReceived();
  const slice = (): void => {
    immediate = undefined;
    timeout = undefined;
    if (stopped) return;
    const messages = messagesReceived();
    if (messages !== messagesSeen) {
      messagesSeen = messages;
      timeout = setTimeout(slice, BUSY_RETRY_MS);
      return;
    }
    try {
      const until = performance.now() + SLICE_MS;
      while (height >= lowest && reader.cachedBlockChars < limits.chars) {
        // Blocks reverted meanwhile are not stored any more: go on below the new tip.
        height = Math.min(height, store.tipHeight());
        if (height < lowest) break;
        reader.warmBlockJson(height);
        height -= 1;
        if (performance.now() >= until) break;
      }
    } catch (error) {
      stopped = true;
      onError(error);
      return;
    }
    if (height >= lowest && reader.cachedBlockChars < limits.chars) immediate = setImmediate(slice);
  };
  if (!stopped) immediate = setImmediate(slice);
  return () => {
    stopped = true;
    if (immediate !== undefined) clearImmediate(immediate);
    if (timeout !== undefined) clearTimeout(timeout);
    immediate = undefined;
    timeout = undefined;
  };
}
