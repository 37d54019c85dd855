/**
 * The native addon (native/, Rust behind hand-written N-API) against the TypeScript code it
 * replaces, measured in the same run:
 *
 * - SHA-256 of 64 bytes (two hashes, the input of an RMT branch) against createHash and
 *   node:crypto's one-shot `hash`: src/native's `sha256` (a pool Buffer filled by the addon),
 *   the addon's `sha256Into` (caller's buffer, nothing allocated), its `sha256` (Buffer made by
 *   native code: the N-API allocation costs more than the hash) and `sha256Many` (1,024 hashes
 *   per call, time per hash).
 * - A block's eventRoot (native-event-root.ts).
 * - SMT: one batch of 10,000 updates (5,000 existing keys, 5,000 new; 32-byte keys and values)
 *   into in-memory trees of 100,000 and 1,000,000 leaves. Baseline: SparseMerkleTree (TypeScript)
 *   over InMemorySmtNodeStore. Native rows: NativeSparseMerkleTree over the native node store
 *   (nodes in Rust memory), the same with the write set turned into `{ hash, data }` objects
 *   (what a caller iterating `writes` and `removed` pays), and over the JavaScript store (every
 *   node read through a callback). Target: 250,000 updates/s into 1,000,000 leaves.
 *
 * Every timed batch starts from the same root (the trees are functional), and every native
 * result is checked against the TypeScript root before timing.
 *
 * The native-store rows are measured first, before the JavaScript store exists: a million-node
 * InMemorySmtNodeStore is a JavaScript heap of a gigabyte or more, and each update hands V8 some
 * 11 MB of result buffers, which makes V8 run full collections of that heap. A node keeps its
 * state in LMDB, not in such a heap, so the first figure is the representative one; the same
 * rows measured again beside the JavaScript store follow, marked "beside a JS store".
 */
import { createHash, hash as oneShotHash, randomBytes } from 'node:crypto';
import { InMemorySmtNodeStore, SparseMerkleTree } from '../../src/merkle/index.js';
import { nativeAddon, nativeStatus, sha256 as nativeWrapperSha256 } from '../../src/native/index.js';
import { NativeSmtNodeStore, NativeSparseMerkleTree } from '../../src/merkle/native/index.js';
import type { NativeAddon } from '../../src/native/index.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';
import { eventRootRows } from './native-event-root.js';

const HASHES_PER_CALL = 256;
const MANY = 1024;
const KEY_LENGTH = 32;
const BATCH = 10_000;
const BATCHES = 3;
const TREE_SIZES = [100_000, 1_000_000];

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `count` distinct random 32-byte values as views of one allocation. */
function randomKeys(count: number): Buffer[] {
  const pool = randomBytes(count * KEY_LENGTH);
  return Array.from({ length: count }, (_, i) => pool.subarray(i * KEY_LENGTH, (i + 1) * KEY_LENGTH));
}

async function sha256Rows(addon: NativeAddon, progress: (line: string) => void): Promise<Measurement[]> {
  progress('native: sha256 64 B');
  const input = randomBytes(64);
  const expected = createHash('sha256').update(input).digest();
  const manyInput = randomBytes(64 * MANY);
  const manyLengths = new Uint32Array(MANY).fill(64);
  if (!addon.sha256(input).equals(expected)) throw new Error('native sha256 computes a wrong digest.');
  if (
    !addon
      .sha256Many(manyInput, manyLengths)
      .subarray(32, 64)
      .equals(createHash('sha256').update(manyInput.subarray(64, 128)).digest())
  ) {
    throw new Error('native sha256Many computes a wrong digest.');
  }
  const loop = (fn: () => unknown) => () => {
    let last: unknown;
    for (let i = 0; i < HASHES_PER_CALL; i++) last = fn();
    return last;
  };
  const scratch = Buffer.alloc(32);
  if (!nativeWrapperSha256(input).equals(expected)) throw new Error('src/native sha256 computes a wrong digest.');
  const [createHashMs, oneShotMs, wrapperMs, intoMs, nativeMs, manyMs] = await interleavedMsPerOp([
    { name: 'createHash', timeMs: 600, opsPerCall: HASHES_PER_CALL, fn: loop(() => createHash('sha256').update(input).digest()) },
    { name: 'crypto.hash', timeMs: 600, opsPerCall: HASHES_PER_CALL, fn: loop(() => oneShotHash('sha256', input, 'buffer')) },
    { name: 'src/native sha256', timeMs: 600, opsPerCall: HASHES_PER_CALL, fn: loop(() => nativeWrapperSha256(input)) },
    { name: 'addon sha256Into', timeMs: 600, opsPerCall: HASHES_PER_CALL, fn: loop(() => addon.sha256Into(input, scratch, 0)) },
    { name: 'addon sha256', timeMs: 600, opsPerCall: HASHES_PER_CALL, fn: loop(() => addon.sha256(input)) },
    { name: 'addon sha256Many', timeMs: 600, opsPerCall: MANY, fn: () => addon.sha256Many(manyInput, manyLengths) },
  ]);
  const baseline = 'native sha256 64 B createHash';
  const backend = addon.sha256Backend;
  return [
    { name: baseline, value: createHashMs! * 1000, unit: 'µs/op' },
    { name: 'native sha256 64 B crypto.hash', value: oneShotMs! * 1000, unit: 'µs/op', baseline },
    { name: `native sha256 64 B src/native sha256 (${backend})`, value: wrapperMs! * 1000, unit: 'µs/op', baseline },
    { name: "native sha256 64 B addon sha256Into, caller's buffer", value: intoMs! * 1000, unit: 'µs/op', baseline },
    { name: 'native sha256 64 B addon sha256, Buffer made natively', value: nativeMs! * 1000, unit: 'µs/op', baseline },
    { name: `native sha256 64 B addon sha256Many, ${formatCount(MANY)} per call`, value: manyMs! * 1000, unit: 'µs/op', baseline },
  ];
}

async function smtRows(addon: NativeAddon, leaves: number, progress: (line: string) => void): Promise<Measurement[]> {
  progress(`native: building a native tree of ${formatCount(leaves)} leaves`);
  const nativeStore = new NativeSmtNodeStore(addon);
  const native = new NativeSparseMerkleTree(nativeStore, KEY_LENGTH, addon);
  // The leaves' keys are kept as one flat buffer and their views dropped after the build, so that
  // the first measurements run beside a small JavaScript heap (see the comment at the top).
  const keyPool = randomBytes(leaves * KEY_LENGTH);
  const keyAt = (i: number) => keyPool.subarray(i * KEY_LENGTH, (i + 1) * KEY_LENGTH);
  const built = native.update(
    Buffer.alloc(0),
    Array.from({ length: leaves }, (_, i) => keyAt(i)),
    randomKeys(leaves),
  );
  nativeStore.apply(built);
  const batches = Array.from({ length: BATCHES }, () => {
    const existing = Array.from({ length: BATCH / 2 }, () => keyAt(Math.floor(Math.random() * leaves)));
    return { keys: [...existing, ...randomKeys(BATCH / 2)], values: randomKeys(BATCH) };
  });
  const cycling = (run: (batch: (typeof batches)[number]) => unknown) => {
    let next = 0;
    return () => run(batches[next++ % BATCHES]!);
  };
  const slow = { timeMs: 1500, minIterations: 3, warmupIterations: 1 };
  const fast = { timeMs: 1500, minIterations: 6, warmupIterations: 1 };
  const nativeTasks = [
    { name: 'native', ...fast, fn: cycling((batch) => native.update(built.root, batch.keys, batch.values)) },
    {
      name: 'native, objects',
      ...fast,
      fn: cycling((batch) => {
        const result = native.update(built.root, batch.keys, batch.values);
        return result.writes.length + result.removed.length;
      }),
    },
  ];

  progress(`native: ${formatCount(BATCH)} updates into ${formatCount(leaves)} leaves, native store`);
  const [nativeMs, materializedMs] = await interleavedMsPerOp(nativeTasks);

  progress(`native: the same tree in a JS store (InMemorySmtNodeStore), for the TypeScript baseline`);
  const jsStore = new InMemorySmtNodeStore();
  jsStore.apply(built);
  const ts = new SparseMerkleTree(jsStore, KEY_LENGTH);
  const nativeOverJs = new NativeSparseMerkleTree(jsStore, KEY_LENGTH, addon);
  for (const batch of batches) {
    const expected = ts.update(built.root, batch.keys, batch.values).root;
    for (const tree of [native, nativeOverJs]) {
      if (!tree.update(built.root, batch.keys, batch.values).root.equals(expected)) {
        throw new Error('The native SMT computes another root than the TypeScript one.');
      }
    }
  }
  progress(`native: ${formatCount(BATCH)} updates into ${formatCount(leaves)} leaves, TypeScript and JS store`);
  const [tsMs, overJsMs, besideMs, besideMaterializedMs] = await interleavedMsPerOp([
    { name: 'typescript', ...slow, fn: cycling((batch) => ts.update(built.root, batch.keys, batch.values)) },
    { name: 'native, JS store', ...slow, fn: cycling((batch) => nativeOverJs.update(built.root, batch.keys, batch.values)) },
    ...nativeTasks,
  ]);
  const rate = (ms: number) => (BATCH / ms) * 1000;
  const prefix = `native smt ${formatCount(BATCH)} updates into ${formatCount(leaves)} leaves`;
  const baseline = `${prefix}: TypeScript`;
  return [
    { name: baseline, value: rate(tsMs!), unit: 'updates/s' },
    { name: `${prefix}: native store`, value: rate(nativeMs!), unit: 'updates/s', baseline },
    { name: `${prefix}: native store, writes as objects`, value: rate(materializedMs!), unit: 'updates/s', baseline },
    { name: `${prefix}: native over the JS store`, value: rate(overJsMs!), unit: 'updates/s', baseline },
    { name: `${prefix}: native store, beside a JS store`, value: rate(besideMs!), unit: 'updates/s', baseline },
    {
      name: `${prefix}: native store, writes as objects, beside a JS store`,
      value: rate(besideMaterializedMs!),
      unit: 'updates/s',
      baseline,
    },
  ];
}

export const nativeSuite: Suite = {
  name: 'native',
  summary: 'native addon vs TypeScript: SHA-256 of 64 B, a block eventRoot, SMT 10,000 updates into 100,000 / 1,000,000 leaves',
  async run(progress) {
    if (nativeAddon === undefined) {
      progress(`native: nothing to measure — ${nativeStatus}`);
      return [];
    }
    const results = await sha256Rows(nativeAddon, progress);
    results.push(...(await eventRootRows(nativeAddon, progress)));
    for (const leaves of TREE_SIZES) results.push(...(await smtRows(nativeAddon, leaves, progress)));
    return results;
  },
};
