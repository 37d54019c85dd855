/**
 * Fills the block JSON caches with the newest blocks once the RPC server listens, before clients
 * ask for them: a public node is asked for its recent blocks most, and without this the first
 * request for each block pays for building its JSON (and, right after start, for code V8 has not
 * optimised yet), which shows as a latency tail in the first seconds of service. The work is cut
 * into slices of a few milliseconds with `setImmediate` between them, so requests that arrive
 * meanwhile are answered between two slices, and it stops at a bound of blocks and of cached
 * characters, well inside the cache, so that it never evicts what requests put there.
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

/**
 * Starts the warm-up and returns the function that stops it. Any failure (the store closed while
 * the node stops, say) ends it and goes to `onError`: it is an optimisation, never a fault.
 */
export function startBlockJsonWarmUp(
  reader: ChainJsonReader,
  store: Pick<ChainReader, 'tipHeight' | 'genesisHeight'>,
  limits: BlockJsonWarmUpLimits,
  onError: (error: unknown) => void,
): () => void {
  let stopped = limits.blocks <= 0 || limits.chars <= 0;
  let timer: NodeJS.Immediate | undefined;
  let height = store.tipHeight();
  const lowest = Math.max(store.genesisHeight(), height - limits.blocks + 1);
  const slice = (): void => {
    timer = undefined;
    if (stopped) return;
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
    if (height >= lowest && reader.cachedBlockChars < limits.chars) timer = setImmediate(slice);
  };
  if (!stopped) timer = setImmediate(slice);
  return () => {
    stopped = true;
    if (timer !== undefined) clearImmediate(timer);
    timer = undefined;
  };
}
