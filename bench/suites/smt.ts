/**
 * Sparse Merkle tree (LIP 0039), TypeScript implementation, in memory: batches of 10,000
 * updates into a tree of 100,000 leaves, and of 1,000,000 leaves when building that tree is
 * expected to take under a minute. Each batch changes 5,000 existing keys and inserts 5,000 new
 * ones (32-byte keys and values), as a block touching many accounts would. The tree is
 * functional (update returns a new root and a write set; the store is only read), so every
 * timed batch starts from the same tree and measures the same work. Tree building is reported
 * too, as information.
 */
import { randomBytes } from 'node:crypto';
import { InMemorySmtNodeStore, SparseMerkleTree } from '../../src/merkle/index.js';
import type { Measurement } from '../lib/figure.js';
import { medianMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';

const KEY_LENGTH = 32;
const BATCH = 10_000;
const BATCHES = 3;
const LARGE_TREE = 1_000_000;
const LARGE_TREE_BUDGET_MS = 60_000;
/**
 * Building ten times more leaves took about 26x as long on the development machine (deeper
 * trees, more garbage collection); the estimate errs a little above that.
 */
const BUILD_GROWTH_PER_10X = 30;

/** `count` distinct random 32-byte values as views of one allocation (cheap to make and keep). */
function randomKeys(count: number): Buffer[] {
  const pool = randomBytes(count * KEY_LENGTH);
  return Array.from({ length: count }, (_, i) => pool.subarray(i * KEY_LENGTH, (i + 1) * KEY_LENGTH));
}

interface TreeRun {
  readonly buildMs: number;
  readonly updatesPerSecond: number;
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

async function runTree(leaves: number, progress: (line: string) => void): Promise<TreeRun> {
  progress(`smt: building a tree of ${formatCount(leaves)} leaves`);
  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, KEY_LENGTH);
  const keys = randomKeys(leaves);
  const values = randomKeys(leaves);
  const start = performance.now();
  const built = tree.update(Buffer.alloc(0), keys, values);
  store.apply(built);
  const buildMs = performance.now() - start;

  const batches = Array.from({ length: BATCHES }, () => {
    const fresh = randomKeys(BATCH / 2);
    const existing = Array.from({ length: BATCH / 2 }, () => keys[Math.floor(Math.random() * leaves)]!);
    return { keys: [...existing, ...fresh], values: randomKeys(BATCH) };
  });
  let next = 0;
  progress(`smt: ${formatCount(BATCH)} updates into ${formatCount(leaves)} leaves`);
  const msPerBatch = await medianMsPerOp({
    name: `smt ${leaves}`,
    minIterations: 6,
    warmupIterations: 1,
    fn: () => {
      const batch = batches[next++ % BATCHES]!;
      return tree.update(built.root, batch.keys, batch.values);
    },
  });
  return { buildMs, updatesPerSecond: (BATCH / msPerBatch) * 1000 };
}

export const smtSuite: Suite = {
  name: 'smt',
  summary: '10,000 updates into in-memory trees of 100,000 and 1,000,000 leaves',
  async run(progress) {
    const results: Measurement[] = [];
    const report = (leaves: number, run: TreeRun) => {
      results.push(
        { name: `smt ${formatCount(BATCH)} updates into ${formatCount(leaves)} leaves`, value: run.updatesPerSecond, unit: 'updates/s' },
        { name: `smt build ${formatCount(leaves)} leaves (one batch)`, value: run.buildMs / 1000, unit: 's' },
      );
    };
    const small = await runTree(100_000, progress);
    report(100_000, small);
    const estimateMs = small.buildMs * BUILD_GROWTH_PER_10X;
    if (estimateMs < LARGE_TREE_BUDGET_MS) {
      report(LARGE_TREE, await runTree(LARGE_TREE, progress));
    } else {
      progress(`smt: skipping ${formatCount(LARGE_TREE)} leaves (estimated build ${(estimateMs / 1000).toFixed(0)} s)`);
    }
    return results;
  },
};
