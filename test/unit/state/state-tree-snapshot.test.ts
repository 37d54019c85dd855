/**
 * The state tree snapshot over a real LMDB environment: written at a clean shutdown, adopted at
 * the next open only while the store still records its stamp, invalidated by the first write
 * after it, and refused (the tree then rebuilt from the values) when damaged, missing or stale.
 * The file format is shared by the native and the TypeScript node stores: each reads the other's.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAIN_ENV_OPTIONS } from '../../../src/chain/lmdb-environment.js';
import { InMemorySmtNodeStore, smtKeyFromStateKey } from '../../../src/merkle/index.js';
import { createInMemoryNodeStore } from '../../../src/merkle/native/index.js';
import { nativeAvailable } from '../../../src/native/index.js';
import type { StateChange } from '../../../src/state/overlay-state.js';
import { forgetTreeSnapshot, StateDb } from '../../../src/state/state-db.js';
import { readTreeSnapshot, writeTreeSnapshot } from '../../../src/state/state-tree-snapshot.js';

const stateKey = (): Buffer => Buffer.concat([Buffer.from('0000000a8000', 'hex'), randomBytes(20)]);

describe('state tree snapshot', () => {
  let dir: string;
  let snapshotPath: string;
  let env: RootDatabase;
  let stateDb: StateDb;
  let height: number;
  const keys: Buffer[] = [];

  const openStore = (): void => {
    env = open({ path: join(dir, 'basalt.lmdb'), ...CHAIN_ENV_OPTIONS });
    stateDb = new StateDb(env, undefined, snapshotPath);
  };
  /** Closes the environment without a snapshot, as a crash or a kill leaves it. */
  const reopenAfterCrash = async (): Promise<void> => {
    await env.close();
    openStore();
  };
  const reopenAfterCleanShutdown = async (): Promise<void> => {
    stateDb.writeSnapshot();
    await env.close();
    openStore();
  };
  const block = (count: number): void => {
    const changes: StateChange[] = Array.from({ length: count }, () => {
      const key = stateKey();
      keys.push(key);
      return { key, value: randomBytes(24), previous: undefined };
    });
    const update = stateDb.prepareUpdate(changes);
    height += 1;
    stateDb.transaction(() => stateDb.commit(height, changes, [], update));
  };
  const someProof = () => stateDb.prove(keys.slice(0, 5).map((key) => smtKeyFromStateKey(key)));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-tree-snapshot-'));
    snapshotPath = join(dir, 'state-tree.snapshot');
    height = 0;
    keys.length = 0;
    openStore();
  });

  afterEach(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is adopted after a clean shutdown: same root, same nodes, same proofs as the rebuilt tree', async () => {
    expect(stateDb.treeOrigin).toEqual({ from: 'values', values: 0, snapshotUnusable: 'none was written at the last shutdown' });
    block(300);
    block(200);
    const root = stateDb.root();
    const size = stateDb.treeSize();
    const proof = someProof();
    await reopenAfterCleanShutdown();
    expect(stateDb.treeOrigin).toEqual({ from: 'snapshot' });
    expect(stateDb.root()).toEqual(root);
    expect(stateDb.treeSize()).toBe(size);
    expect(someProof()).toEqual(proof);
    // The adopted tree moves on like a rebuilt one.
    block(50);
    const next = stateDb.root();
    await reopenAfterCrash();
    expect(stateDb.treeOrigin).toMatchObject({ from: 'values', values: 550 });
    expect(stateDb.root()).toEqual(next);
  });

  it('an empty state round-trips too', async () => {
    await reopenAfterCleanShutdown();
    expect(stateDb.treeOrigin).toEqual({ from: 'snapshot' });
    block(3);
    expect(stateDb.treeSize()).toBeGreaterThan(0);
  });

  it('is invalidated by the first write after the open: the stamp leaves the store with it and the file is deleted', async () => {
    block(100);
    await reopenAfterCleanShutdown();
    expect(existsSync(snapshotPath)).toBe(true);
    block(10);
    expect(existsSync(snapshotPath)).toBe(false);
    await reopenAfterCrash();
    expect(stateDb.treeOrigin).toEqual({ from: 'values', values: 110, snapshotUnusable: 'none was written at the last shutdown' });
  });

  it('is forgotten by a copy of the store (an archive), which then rebuilds without looking for the file', async () => {
    block(30);
    stateDb.writeSnapshot();
    forgetTreeSnapshot(env);
    rmSync(snapshotPath); // the archive carries the store, never the file
    await reopenAfterCrash();
    expect(stateDb.treeOrigin).toEqual({ from: 'values', values: 30, snapshotUnusable: 'none was written at the last shutdown' });
  });

  it('a stale file (blocks written after it, then a crash) is never loaded', async () => {
    block(100);
    await reopenAfterCleanShutdown();
    const kept = join(dir, 'kept');
    copyFileSync(snapshotPath, kept);
    block(10);
    const root = stateDb.root();
    copyFileSync(kept, snapshotPath);
    await reopenAfterCrash();
    expect(stateDb.treeOrigin).toEqual({ from: 'values', values: 110, snapshotUnusable: 'the snapshot is older than the stored state' });
    expect(stateDb.root()).toEqual(root);
    expect(existsSync(snapshotPath)).toBe(false);
  });

  it('a rolled-back write leaves the stamp, and the write after it still removes it', async () => {
    block(100);
    await reopenAfterCleanShutdown();
    const changes: StateChange[] = [{ key: stateKey(), value: randomBytes(8), previous: undefined }];
    const update = stateDb.prepareUpdate(changes);
    expect(() =>
      stateDb.transaction(() => {
        stateDb.commit(height + 1, changes, [], update);
        throw new Error('the block store refused the block');
      }),
    ).toThrow('refused');
    block(5);
    expect(existsSync(snapshotPath)).toBe(false);
    await reopenAfterCrash();
    expect(stateDb.treeOrigin).toMatchObject({ from: 'values', values: 105 });
  });

  it.each([
    ['a flipped byte in the records', (bytes: Buffer) => bytes.with(bytes.length >> 1, bytes[bytes.length >> 1]! ^ 1)],
    ['a flipped byte in the header', (bytes: Buffer) => bytes.with(13, bytes[13]! ^ 1)],
    ['a cut-short file', (bytes: Buffer) => bytes.subarray(0, bytes.length - 40)],
    ['an empty file', () => new Uint8Array(0)],
  ])('%s is detected and the tree rebuilt from the values', async (_name, damage) => {
    block(400);
    const root = stateDb.root();
    stateDb.writeSnapshot();
    await env.close();
    writeFileSync(snapshotPath, damage(readFileSync(snapshotPath)));
    openStore();
    expect(stateDb.treeOrigin).toMatchObject({ from: 'values', values: 400, snapshotDamaged: true });
    expect((stateDb.treeOrigin as { snapshotUnusable: string }).snapshotUnusable).toMatch(/damaged snapshot/);
    expect(stateDb.root()).toEqual(root);
  });

  it('an intact file whose root node does not hash to its root is refused', async () => {
    block(1);
    const root = stateDb.root();
    stateDb.writeSnapshot();
    await env.close();
    // One leaf: the root is that leaf, the last record's last byte is in its value hash. The
    // checksum is made right again, so only the node check can tell.
    const bytes = readFileSync(snapshotPath);
    const body = bytes.subarray(0, bytes.length - 32);
    body[body.length - 1] = body[body.length - 1]! ^ 1;
    writeFileSync(snapshotPath, Buffer.concat([body, createHash('sha256').update(body).digest()]));
    openStore();
    expect(stateDb.treeOrigin).toMatchObject({
      from: 'values',
      values: 1,
      snapshotUnusable: `the snapshot does not hold the node of its root ${root.toString('hex')}`,
      snapshotDamaged: true,
    });
    expect(stateDb.root()).toEqual(root);
  });

  it('a missing file or another shutdown`s file is refused', async () => {
    block(100);
    stateDb.writeSnapshot();
    const first = readFileSync(snapshotPath);
    stateDb.writeSnapshot();
    await env.close();
    rmSync(snapshotPath);
    openStore();
    expect(stateDb.treeOrigin).toMatchObject({ from: 'values', snapshotUnusable: `the snapshot file ${snapshotPath} is missing` });
    // A copy of the store without the file (a backup, an archive) is no damage: an info, not a warning.
    expect(stateDb.treeOrigin).not.toHaveProperty('snapshotDamaged');
    stateDb.writeSnapshot();
    await env.close();
    writeFileSync(snapshotPath, first);
    openStore();
    expect(stateDb.treeOrigin).toMatchObject({ from: 'values', snapshotUnusable: 'the snapshot file is not the one the store recorded' });
  });

  it('a store opened without a snapshot path (tools checking the values) always rebuilds', async () => {
    block(20);
    stateDb.writeSnapshot();
    await env.close();
    env = open({ path: join(dir, 'basalt.lmdb'), ...CHAIN_ENV_OPTIONS });
    stateDb = new StateDb(env);
    expect(stateDb.treeOrigin).toEqual({ from: 'values', values: 20 });
  });

  it.runIf(nativeAvailable)('the native and the TypeScript stores read each other`s files', () => {
    const native = createInMemoryNodeStore();
    const script = new InMemorySmtNodeStore();
    for (let i = 0; i < 500; i += 1) {
      const hash = randomBytes(32);
      const data = randomBytes(i % 80);
      native.set(hash, data);
      script.set(hash, data);
    }
    const stamp = randomBytes(48);
    const nativeFile = join(dir, 'native.snapshot');
    const scriptFile = join(dir, 'script.snapshot');
    writeTreeSnapshot(native, nativeFile, stamp);
    writeTreeSnapshot(script, scriptFile, stamp);
    const fromNative = new InMemorySmtNodeStore();
    const fromScript = createInMemoryNodeStore();
    expect(readTreeSnapshot(fromNative, nativeFile)).toEqual(stamp);
    expect(readTreeSnapshot(fromScript, scriptFile)).toEqual(stamp);
    expect(fromNative.size).toBe(500);
    expect(fromScript.size).toBe(500);
    for (const { hash, data } of script.entries()) {
      expect(fromNative.get(hash)).toEqual(data);
      expect(fromScript.get(hash)).toEqual(data);
    }
    const damaged = readFileSync(scriptFile);
    damaged[100] = damaged[100]! ^ 0x80;
    writeFileSync(scriptFile, damaged);
    expect(() => readTreeSnapshot(new InMemorySmtNodeStore(), scriptFile)).toThrow('damaged snapshot: checksum mismatch');
    expect(() => readTreeSnapshot(createInMemoryNodeStore(), scriptFile)).toThrow('damaged snapshot: checksum mismatch');
  });
});
