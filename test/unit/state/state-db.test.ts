/**
 * StateDb over a real LMDB environment: the state tree is held in memory and rebuilt from the
 * stored values when the store opens, so these tests reopen the store, abort transactions and
 * corrupt values, and check the tree always matches the disk, the roots an independent tree
 * computes for the same key-value set, and the proofs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAIN_ENV_OPTIONS } from '../../../src/chain/lmdb-environment.js';
import {
  EMPTY_HASH,
  smtKeyFromStateKey,
  smtValueFromStateValue,
  STATE_KEY_LENGTH,
  verifyInclusionProof,
} from '../../../src/merkle/index.js';
import { nativeAvailable } from '../../../src/native/index.js';
import type { StateChange } from '../../../src/state/overlay-state.js';
import { LMDB_MAX_KEY_BYTES } from '../../../src/state/lmdb-reader.js';
import { StateDb } from '../../../src/state/state-db.js';
import { packBytes } from '../../../src/workers/tasks/packed-bytes.js';
import { stateReadProve } from '../../../src/workers/tasks/state-read-prove.js';
import { stateTreeUpdate, type StateTreeUpdateOutput } from '../../../src/workers/tasks/state-tree-update.js';
import { randomStateKey, rootOfEntries } from '../../support/state-entries.js';

describe('StateDb', () => {
  let dir: string;
  let env: RootDatabase;
  let stateDb: StateDb;
  /** What the store should hold, hex key → value. */
  let expected: Map<string, Buffer>;
  let height: number;

  const reopen = async (): Promise<void> => {
    await env.close();
    env = open({ path: join(dir, 'basalt.lmdb'), ...CHAIN_ENV_OPTIONS });
    stateDb = new StateDb(env);
  };

  /** Sets or deletes (value undefined) keys as one block. */
  const block = (entries: [Buffer, Buffer | undefined][]): void => {
    const changes: StateChange[] = entries.map(([key, value]) => ({ key, value, previous: expected.get(key.toString('hex')) }));
    const update = stateDb.prepareUpdate(changes);
    height += 1;
    stateDb.transaction(() => stateDb.commit(height, changes, [], update));
    for (const [key, value] of entries) {
      if (value === undefined) expected.delete(key.toString('hex'));
      else expected.set(key.toString('hex'), value);
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-state-db-'));
    env = open({ path: join(dir, 'basalt.lmdb'), ...CHAIN_ENV_OPTIONS });
    stateDb = new StateDb(env);
    expected = new Map();
    height = 0;
  });

  afterEach(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rebuilds the same tree from the stored values when the store is reopened', async () => {
    const keys = Array.from({ length: 300 }, randomStateKey);
    block(keys.map((key) => [key, randomBytes(40)]));
    block([...keys.slice(0, 50).map((key): [Buffer, undefined] => [key, undefined]), [randomStateKey(), randomBytes(8)]]);
    const root = stateDb.root();
    expect(root.equals(rootOfEntries(expected))).toBe(true);
    const query = keys.slice(60, 64).map(smtKeyFromStateKey);
    const proof = stateDb.prove(query);

    await reopen();
    expect(stateDb.root().equals(root)).toBe(true);
    expect(stateDb.prove(query)).toEqual(proof);
    expect(verifyInclusionProof(query, proof, root, STATE_KEY_LENGTH)).toBe(true);
    // And it moves on from there like the tree it replaced.
    block([[keys[100] as Buffer, randomBytes(3)]]);
    expect(stateDb.root().equals(rootOfEntries(expected))).toBe(true);
  });

  it('answers "absent" for keys longer than LMDB can store, which lmdb-js would throw on', () => {
    const key = randomStateKey();
    block([[key, Buffer.from('01', 'hex')]]);
    for (const length of [LMDB_MAX_KEY_BYTES + 1, 5_000, 64 * 1024]) {
      const long = Buffer.concat([key, Buffer.alloc(length - key.length, 0xab)]);
      for (const reader of [stateDb.moduleReader, stateDb.engineReader]) {
        expect(reader.get(long)).toBeUndefined();
        expect(reader.has(long)).toBe(false);
      }
    }
    expect(stateDb.moduleReader.get(key)?.toString('hex')).toBe('01');
    expect(stateDb.moduleReader.has(key)).toBe(true);
  });

  it('leaves disk and tree at the previous block when the write transaction fails', () => {
    const key = randomStateKey();
    block([[key, Buffer.from('01', 'hex')]]);
    const before = stateDb.root();
    const changes: StateChange[] = [{ key, value: Buffer.from('02', 'hex'), previous: Buffer.from('01', 'hex') }];
    const update = stateDb.prepareUpdate(changes);
    expect(() =>
      stateDb.transaction(() => {
        stateDb.commit(2, changes, [], update);
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(stateDb.root().equals(before)).toBe(true);
    expect(stateDb.moduleReader.get(key)?.toString('hex')).toBe('01');
    // The tree did not move either: the next block is computed from the committed root.
    height = 1;
    block([[randomStateKey(), Buffer.from('03', 'hex')]]);
    expect(stateDb.root().equals(rootOfEntries(expected))).toBe(true);
  });

  it('commits a block on the write thread: visible, tree moved and reopened the same, then flushed', async () => {
    block([[randomStateKey(), Buffer.from('01', 'hex')]]);
    const key = randomStateKey();
    const changes: StateChange[] = [{ key, value: Buffer.from('02', 'hex'), previous: undefined }];
    const update = stateDb.prepareUpdate(changes);
    const pending = stateDb.transactionAsync(() => {
      stateDb.commit(2, changes, [], update);
      return 'stored';
    });
    // Nothing else writes while it commits, and nothing is visible before it resolves.
    expect(() => stateDb.transaction(() => undefined)).toThrow(/does not nest/);
    await expect(pending).resolves.toBe('stored');
    expect(stateDb.moduleReader.get(key)?.toString('hex')).toBe('02');
    expect(stateDb.root().equals(update.root)).toBe(true);
    expect(stateDb.prove([smtKeyFromStateKey(key)]).queries[0]?.value.equals(smtValueFromStateValue(Buffer.from('02', 'hex')))).toBe(true);
    await stateDb.flushed();
    expected.set(key.toString('hex'), Buffer.from('02', 'hex'));
    await reopen();
    expect(stateDb.root().equals(rootOfEntries(expected))).toBe(true);
  });

  it('queues nothing when the write of an asynchronous transaction throws half-way', async () => {
    const key = randomStateKey();
    block([[key, Buffer.from('01', 'hex')]]);
    const before = stateDb.root();
    const changes: StateChange[] = [{ key, value: Buffer.from('02', 'hex'), previous: Buffer.from('01', 'hex') }];
    const update = stateDb.prepareUpdate(changes);
    await expect(
      stateDb.transactionAsync(() => {
        stateDb.commit(2, changes, [], update);
        throw new Error('a bug after the first writes');
      }),
    ).rejects.toThrow('a bug after the first writes');
    await stateDb.flushed();
    await env.flushed;
    env.resetReadTxn();
    expect(stateDb.root().equals(before)).toBe(true);
    expect(stateDb.moduleReader.get(key)?.toString('hex')).toBe('01');
    height = 1;
    block([[randomStateKey(), Buffer.from('03', 'hex')]]);
    expect(stateDb.root().equals(rootOfEntries(expected))).toBe(true);
  });

  it('reverts a block to the exact previous root and values', () => {
    const kept = randomStateKey();
    block([[kept, Buffer.from('aa', 'hex')]]);
    const parentRoot = stateDb.root();
    block([
      [kept, undefined],
      [randomStateKey(), Buffer.from('bb', 'hex')],
    ]);
    const update = stateDb.prepareRevert(2, parentRoot);
    stateDb.transaction(() => stateDb.revert(2, update));
    expect(stateDb.root().equals(parentRoot)).toBe(true);
    expect(stateDb.moduleReader.get(kept)?.toString('hex')).toBe('aa');
    expect(stateDb.prove([smtKeyFromStateKey(kept)]).queries[0]?.value.equals(smtValueFromStateValue(Buffer.from('aa', 'hex')))).toBe(true);
  });

  it('refuses writes outside a transaction, which would leave the tree behind the disk', () => {
    const changes: StateChange[] = [{ key: randomStateKey(), value: Buffer.from('01', 'hex'), previous: undefined }];
    const update = stateDb.prepareUpdate(changes);
    expect(() => env.transactionSync(() => stateDb.commit(1, changes, [], update))).toThrow(/StateDb.transaction/);
    expect(stateDb.root().equals(EMPTY_HASH)).toBe(true);
  });

  it('refuses to open values that do not give the committed root', async () => {
    block([[randomStateKey(), Buffer.from('01', 'hex')]]);
    const values = env.openDB<Buffer, Buffer>('state.values', { keyEncoding: 'binary', encoding: 'binary' });
    await values.put(randomStateKey(), Buffer.from('ff', 'hex'));
    await expect(reopen()).rejects.toThrow(/Store inconsistency: the stored state values give root/);
  });

  it('drops the node table older stores kept in LMDB', async () => {
    block([[randomStateKey(), Buffer.from('01', 'hex')]]);
    const legacy = env.openDB<Buffer, Buffer>('state.smt', { keyEncoding: 'binary', encoding: 'binary' });
    await legacy.put(randomBytes(32), randomBytes(65));
    await reopen();
    expect([...env.getKeys()]).not.toContain('state.smt');
    expect(stateDb.root().equals(rootOfEntries(expected))).toBe(true);
  });

  describe.skipIf(!nativeAvailable)('proofs in another thread (state-read-prove)', () => {
    it('reads the shared tree at the root it is given, and says stale once that root is gone', () => {
      const keys = Array.from({ length: 40 }, randomStateKey);
      block(keys.map((key) => [key, randomBytes(10)]));
      const treeId = stateDb.treeShareId() as number;
      expect(treeId).toBeGreaterThan(0);
      const root = stateDb.root();
      const queryKeys = keys.slice(0, 5).map((key) => smtKeyFromStateKey(key).toString('hex'));
      const answer = stateReadProve.run({ treeId, root: root.toString('hex'), queryKeys });
      expect(answer).toEqual({ stale: false, json: expect.any(String) });
      const proof = stateDb.prove(queryKeys.map((key) => Buffer.from(key, 'hex')));
      const json = JSON.parse((answer as { json: string }).json) as { proof: { siblingHashes: string[] } };
      expect(json.proof.siblingHashes).toEqual(proof.siblingHashes.map((hash) => hash.toString('hex')));

      block([[keys[0] as Buffer, randomBytes(10)]]);
      expect(stateReadProve.run({ treeId, root: root.toString('hex'), queryKeys })).toEqual({ stale: true });
      expect(stateReadProve.run({ treeId: 0, root: root.toString('hex'), queryKeys })).toEqual({ stale: true });
    });

    it('computes a block update on the shared tree as StateDb does, and refuses a root that is gone', () => {
      const keys = Array.from({ length: 300 }, randomStateKey);
      block(keys.map((key) => [key, randomBytes(10)]));
      const treeId = stateDb.treeShareId() as number;
      const oldRoot = stateDb.root();
      const changes: StateChange[] = [
        ...keys.slice(0, 20).map((key) => ({ key, value: undefined, previous: expected.get(key.toString('hex')) })),
        ...Array.from({ length: 20 }, () => ({ key: randomStateKey(), value: randomBytes(5), previous: undefined })),
      ];
      const packed = {
        treeId,
        root: oldRoot,
        keys: packBytes(changes.map((change) => change.key)),
        values: packBytes(changes.map((change) => change.value ?? new Uint8Array(0))),
        deleted: Uint8Array.from(changes, (change) => (change.value === undefined ? 1 : 0)),
      };
      const answer = stateTreeUpdate.run(packed) as StateTreeUpdateOutput;
      const here = stateDb.prepareUpdate(changes);
      expect(answer.ok).toBe(true);
      expect(Buffer.from((answer as { root: Uint8Array }).root).equals(here.root)).toBe(true);
      expect(Buffer.from((answer as { writeData: Uint8Array }).writeData).length).toBeGreaterThan(0);

      block([[keys[100] as Buffer, randomBytes(10)]]);
      expect(stateTreeUpdate.run(packed)).toEqual({ ok: false });
    });
  });
});
