/**
 * The loader (a missing, disabled or broken addon falls back to TypeScript with a clear status)
 * and the contract of the native wrappers: the same errors as the TypeScript tree, the native
 * store behaving as InMemorySmtNodeStore, and bad arguments to the raw addon rejected rather
 * than trusted.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError, InvalidParamsError, NotFoundError } from '../../../src/errors.js';
import { EMPTY_HASH, sha256 as merkleSha256 } from '../../../src/merkle/hash.js';
import { InMemorySmtNodeStore, SparseMerkleTree } from '../../../src/merkle/smt/index.js';
import {
  NATIVE_DISABLE_ENV,
  NATIVE_PATH_ENV,
  PREBUILDS_DIR,
  loadAddon,
  nativeAddon,
  nativeAvailable,
  nativeSearch,
  nativeStatus,
  platformTriple,
} from '../../../src/native/index.js';
import {
  NativeSmtNodeStore,
  NativeSparseMerkleTree,
  PackedSmtUpdateResult,
  createInMemoryNodeStore,
  createSparseMerkleTree,
} from '../../../src/merkle/native/index.js';
import type { NativeStoreHandle } from '../../../src/native/native-addon.js';
import { nativeMissing } from './native-test-support.js';

const EMPTY = Buffer.alloc(0);
const key = (byte: number, length = 32): Buffer => Buffer.alloc(length, byte);

describe('native addon loader', () => {
  it('is disabled by BASALT_NATIVE=0', () => {
    const result = loadAddon({ [NATIVE_DISABLE_ENV]: '0' });
    expect(result.addon).toBeUndefined();
    expect(result.status).toContain('disabled');
  });

  it('reports an addon that is not built', () => {
    const result = loadAddon({ [NATIVE_PATH_ENV]: join(tmpdir(), 'no-such-basalt-addon.node') });
    expect(result.addon).toBeUndefined();
    expect(result.status).toContain('not built');
  });

  it('reports a file that is not an addon', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'basalt-native-')), 'broken.node');
    writeFileSync(path, 'not a shared library');
    const result = loadAddon({ [NATIVE_PATH_ENV]: path });
    expect(result.addon).toBeUndefined();
    expect(result.status).toContain('failed to load');
  });

  it('falls back to the TypeScript implementations when the addon is absent', () => {
    const tree = createSparseMerkleTree(new InMemorySmtNodeStore(), 32, { native: false });
    expect(tree).toBeInstanceOf(SparseMerkleTree);
    expect(tree).not.toBeInstanceOf(NativeSparseMerkleTree);
    expect(createInMemoryNodeStore({ native: false })).toBeInstanceOf(InMemorySmtNodeStore);
    expect(nativeStatus.length).toBeGreaterThan(0);
  });

  it('uses the addon when it is loaded', () => {
    const tree = createSparseMerkleTree(new InMemorySmtNodeStore(), 32);
    expect(tree instanceof NativeSparseMerkleTree).toBe(nativeAvailable);
    expect(createInMemoryNodeStore() instanceof NativeSmtNodeStore).toBe(nativeAvailable);
    expect(nativeStatus.startsWith('native addon loaded')).toBe(nativeAvailable);
  });

  it('names the platform as napi-rs names prebuilds and per-platform packages', () => {
    expect(platformTriple('darwin', 'arm64')).toBe('darwin-arm64');
    expect(platformTriple('win32', 'x64')).toBe('win32-x64-msvc');
    expect(platformTriple('linux', 'arm64')).toMatch(/^linux-arm64-(gnu|musl)$/);
  });

  it('looks at the local build, then the shipped prebuild, then the per-platform package', () => {
    const places = nativeSearch.map((line) => line.split(':')[0]);
    if (process.env[NATIVE_DISABLE_ENV] === '0') {
      expect(places).toEqual([]);
      return;
    }
    if (nativeAvailable) {
      expect(['local build', 'prebuild', 'platform package']).toContain(places.at(-1));
    } else {
      expect(places).toEqual(['local build', 'prebuild', 'platform package']);
      expect(nativeSearch[1]).toContain(`${PREBUILDS_DIR}basalt-native.${platformTriple()}.node`);
    }
    expect(places[0]).toBe(process.env[NATIVE_PATH_ENV] === undefined ? 'local build' : 'path');
  });
});

describe.skipIf(nativeMissing('contract'))('native SMT contract', () => {
  const addon = nativeAddon!;

  function pair(keyLength = 32) {
    const tsStore = new InMemorySmtNodeStore();
    const nativeStore = new NativeSmtNodeStore(addon);
    return {
      ts: new SparseMerkleTree(tsStore, keyLength),
      native: new NativeSparseMerkleTree(nativeStore, keyLength, addon),
      nativeOverJs: new NativeSparseMerkleTree(tsStore, keyLength, addon),
      tsStore,
      nativeStore,
    };
  }

  /** Runs `call` on each tree; all must throw the same error class with the same message. */
  function expectSameError(calls: (() => unknown)[], errorClass: new (...args: never[]) => Error): void {
    const messages = calls.map((call) => {
      try {
        call();
      } catch (error) {
        expect(error).toBeInstanceOf(errorClass);
        return (error as Error).message;
      }
      throw new Error('expected a throw');
    });
    expect(new Set(messages).size).toBe(1);
  }

  it('throws the TypeScript errors for bad arguments and missing nodes', () => {
    const { ts, native, nativeOverJs } = pair();
    const trees = [ts, native, nativeOverJs];
    expectSameError(
      trees.map((tree) => () => tree.update(EMPTY, [key(1)], [])),
      InvalidParamsError,
    );
    expectSameError(
      trees.map((tree) => () => tree.update(EMPTY, [key(1, 31)], [key(2)])),
      FormatError,
    );
    expectSameError(
      trees.map((tree) => () => tree.prove(EMPTY, [key(1, 33)])),
      FormatError,
    );
    const unknownRoot = key(7);
    expectSameError(
      trees.map((tree) => () => tree.update(unknownRoot, [key(1)], [key(2)])),
      NotFoundError,
    );
    expectSameError(
      trees.map((tree) => () => tree.prove(unknownRoot, [key(1)])),
      NotFoundError,
    );
    // A root of another length cannot name a node: reported as the TypeScript tree does.
    expectSameError(
      trees.map((tree) => () => tree.update(key(7, 20), [key(1)], [key(2)])),
      NotFoundError,
    );
  });

  it('reports a node missing below the root as the TypeScript tree does', () => {
    const { ts, native, tsStore, nativeStore } = pair();
    const keys = [key(0x00), key(0x80), key(0xc0)];
    const built = ts.update(EMPTY, keys, keys);
    tsStore.apply(built);
    nativeStore.apply(built);
    // Drop the leaf of key 0x80 from both stores; updating that key must need it.
    const leaf = built.writes.find((write) => write.data[0] === 0 && write.data[1] === 0x80)!;
    tsStore.delete(leaf.hash);
    nativeStore.delete(leaf.hash);
    const overJs = new NativeSparseMerkleTree(tsStore, 32, addon);
    expectSameError(
      [ts, native, overJs].map((tree) => () => tree.update(built.root, [key(0x80), key(0x81)], [key(1), key(2)])),
      NotFoundError,
    );
  });

  it('returns the given root, and nothing to write, for empty and no-op batches', () => {
    const { ts, native, nativeStore } = pair();
    expect(native.update(EMPTY, [], [])).toEqual({ root: EMPTY_HASH, writes: [], removed: [] });
    const built = native.update(EMPTY, [key(1), key(2)], [key(3), key(4)]);
    nativeStore.apply(built);
    const noop = native.update(built.root, [key(1), key(9)], [key(3), EMPTY]);
    expect(noop.root).toBe(built.root);
    expect(noop.writes).toEqual([]);
    expect(noop.removed).toEqual([]);
    expect(ts.update(EMPTY, [key(1), key(2)], [key(3), key(4)]).root.equals(built.root)).toBe(true);
  });

  it('returns a write set that reads like a plain object (destructuring, spread)', () => {
    const { native } = pair();
    // Keys that part at the first bit: two leaves under one branch.
    const result = native.update(EMPTY, [key(0x00), key(0x80)], [key(3), key(4)]);
    expect(result).toBeInstanceOf(PackedSmtUpdateResult);
    const { writes, removed } = result;
    expect(writes).toHaveLength(3);
    expect(removed).toHaveLength(0);
    const spread = { ...result };
    expect(spread.writes).toBe(writes);
    expect(spread.root.equals(result.root)).toBe(true);
    for (const { hash, data } of writes) {
      const prefix = Buffer.from(data[0] === 0 ? 'LSK_SMTL_' : 'LSK_SMTB_');
      expect(merkleSha256(Buffer.concat([prefix, data.subarray(1)])).equals(hash)).toBe(true);
    }
  });

  it('keeps the native store in step with InMemorySmtNodeStore', () => {
    const { ts, tsStore, nativeStore } = pair();
    const keys = Array.from({ length: 50 }, (_, i) => key(i * 5));
    const built = ts.update(EMPTY, keys, keys);
    tsStore.apply(built);
    nativeStore.apply(built); // a plain (non-packed) write set
    expect(nativeStore.size).toBe(tsStore.size);
    for (const { hash, data } of built.writes) expect(nativeStore.get(hash)?.equals(data)).toBe(true);

    const changed = ts.update(
      built.root,
      keys.slice(0, 20),
      keys.slice(0, 20).map(() => EMPTY),
    );
    tsStore.apply(changed, true);
    nativeStore.apply(changed, true);
    expect(nativeStore.size).toBe(tsStore.size);
    for (const hash of changed.removed) expect(nativeStore.get(hash)).toBeUndefined();

    const node = nativeStore.get(changed.writes[0]!.hash)!;
    node[0] ^= 1; // a returned node is a copy
    expect(nativeStore.get(changed.writes[0]!.hash)!.equals(node)).toBe(false);
    nativeStore.set(key(9), Buffer.from('x'));
    nativeStore.set(key(9), Buffer.from('yz'));
    expect(nativeStore.get(key(9))?.toString()).toBe('yz');
    nativeStore.delete(key(9));
    expect(nativeStore.get(key(9))).toBeUndefined();
    expect(nativeStore.get(key(9, 5))).toBeUndefined();
    expect(() => nativeStore.set(key(9, 5), Buffer.from('x'))).toThrow(InvalidParamsError);
  });

  it('rejects bad arguments to the raw addon instead of trusting them', () => {
    const store = addon.nodeStoreCreate();
    const reader = () => [];
    expect(() => addon.smtUpdate(EMPTY, [key(1)], [key(1)], 32, {} as NativeStoreHandle)).toThrow(TypeError);
    expect(() => addon.smtUpdate(EMPTY, [key(1)], [key(1)], 32, 5 as unknown as NativeStoreHandle)).toThrow(TypeError);
    expect(() => addon.nodeStoreSize({} as NativeStoreHandle)).toThrow(TypeError);
    expect(() => addon.smtUpdate(EMPTY, [key(1, 31)], [key(1)], 32, store)).toThrow(RangeError);
    expect(() => addon.smtUpdate(EMPTY, [key(1)], [], 32, store)).toThrow(RangeError);
    expect(() => addon.smtUpdate(key(1, 7), [key(1)], [key(1)], 32, store)).toThrow(RangeError);
    expect(() => addon.smtUpdate(EMPTY, [key(1)], [key(1)], 0, store)).toThrow(RangeError);
    expect(() => addon.smtProve(key(1), [key(1)], 32, reader)).toThrow(TypeError); // wrong count
    expect(() => addon.smtProve(key(1), [key(1)], 32, () => [5 as unknown as Buffer])).toThrow(TypeError);
    expect(() => addon.nodeStoreApply(store, Buffer.alloc(32), Buffer.alloc(4), Uint32Array.of(8), EMPTY, false)).toThrow(RangeError);
    expect(() =>
      addon.smtProve(key(1), [key(1)], 32, () => {
        throw new Error('store failure');
      }),
    ).toThrow('store failure');
  });
});
