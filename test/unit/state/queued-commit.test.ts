/**
 * StateDb.queueTransaction moves the state tree when the block's transaction is queued, before
 * LMDB's write thread has committed it, so that the next block's update can be computed
 * meanwhile. These tests hold that to its guarantees over a real LMDB environment: proofs stay
 * against the root readers see until the block is visible, the tree ends with exactly the nodes
 * of one root, and a commit that really fails (the file may not grow: RLIMIT_FSIZE on this test
 * process, as a full disk does to the node) takes the tree back to the committed root.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAIN_ENV_OPTIONS } from '../../../src/chain/lmdb-environment.js';
import { StoreWriteError } from '../../../src/errors.js';
import { smtKeyFromStateKey, STATE_KEY_LENGTH, verify } from '../../../src/merkle/index.js';
import type { StateChange } from '../../../src/state/overlay-state.js';
import { StateDb } from '../../../src/state/state-db.js';
import { limitOwnFileSize } from '../../support/file-size-limit.js';
import { randomStateKey, rootOfEntries } from '../../support/state-entries.js';

describe('StateDb.queueTransaction (the tree moves as the block is queued)', () => {
  let dir: string;
  let path: string;
  let env: RootDatabase;
  let stateDb: StateDb;
  let expected: Map<string, Buffer>;
  let height: number;
  let keys: Buffer[];

  /** Changes to `count` existing keys (new values; every fifth deleted) and `count` new keys. */
  const changesFor = (count: number, state: Map<string, Buffer>, valueBytes = 32): StateChange[] => {
    const changes: StateChange[] = [];
    const picked = new Set<string>();
    for (let i = 0; i < count && keys.length > 0; i++) {
      const key = keys[Math.floor(Math.random() * keys.length)] as Buffer;
      const id = key.toString('hex');
      if (!state.has(id) || picked.has(id)) continue;
      picked.add(id);
      changes.push({ key, value: i % 5 === 0 ? undefined : randomBytes(valueBytes), previous: state.get(id) });
    }
    for (let i = 0; i < count; i++) changes.push({ key: randomStateKey(), value: randomBytes(valueBytes), previous: undefined });
    return changes.sort((a, b) => a.key.compare(b.key));
  };
  const applied = (state: Map<string, Buffer>, changes: readonly StateChange[]): Map<string, Buffer> => {
    const next = new Map(state);
    for (const { key, value } of changes) {
      if (value === undefined) next.delete(key.toString('hex'));
      else next.set(key.toString('hex'), value);
    }
    return next;
  };
  const queue = (changes: readonly StateChange[], update = stateDb.prepareUpdate(changes)) => {
    height += 1;
    const at = height;
    for (const { key, previous } of changes) if (previous === undefined) keys.push(key);
    return stateDb.queueTransaction(() => stateDb.commit(at, changes, [], update));
  };
  const reopen = async (): Promise<void> => {
    await env.close();
    env = open({ path, ...CHAIN_ENV_OPTIONS });
    stateDb = new StateDb(env);
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-queued-commit-'));
    path = join(dir, 'basalt.lmdb');
    env = open({ path, ...CHAIN_ENV_OPTIONS });
    stateDb = new StateDb(env);
    keys = [];
    height = 0;
    expected = new Map();
    const genesis = changesFor(2_000, expected);
    await queue(genesis).visible();
    expected = applied(expected, genesis);
    await stateDb.flushed();
  });

  afterEach(async () => {
    limitOwnFileSize('unlimited');
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('computes the next update while a block commits, proves against the visible root meanwhile, and keeps one root', async () => {
    const before = stateDb.root();
    const first = changesFor(500, expected);
    const afterFirst = applied(expected, first);
    const queued = queue(first);
    // The tree is at the queued block's root, the store and the proofs at the one before.
    const query = first.slice(0, 8).map(({ key }) => smtKeyFromStateKey(key));
    const proof = stateDb.prove(query);
    expect(verify(query, proof, before, STATE_KEY_LENGTH)).toBe(true);
    const second = changesFor(500, afterFirst);
    const afterSecond = applied(afterFirst, second);
    const secondUpdate = stateDb.prepareUpdate(second);
    expect(secondUpdate.root.equals(rootOfEntries(afterSecond))).toBe(true);

    await queued.visible();
    expect(stateDb.root().equals(rootOfEntries(afterFirst))).toBe(true);
    expect(verify(query, stateDb.prove(query), stateDb.root(), STATE_KEY_LENGTH)).toBe(true);
    await queue(second, secondUpdate).visible();
    expect(stateDb.root().equals(secondUpdate.root)).toBe(true);
    await stateDb.flushed();

    // The nodes of the roots left behind are gone: a tree rebuilt from the values is the same size.
    const size = stateDb.treeSize();
    await reopen();
    expect(stateDb.root().equals(secondUpdate.root)).toBe(true);
    expect(stateDb.treeSize()).toBe(size);
  });

  it('keeps every node a block needs when it puts back what the block two before it replaced', async () => {
    // Values flip between two states and keys are deleted and added back, block after block,
    // each block prepared while the one before it commits: the nodes a block writes are often
    // the very ones the block before it replaced.
    const flipping = keys.slice(0, 300);
    const first = new Map(flipping.map((key) => [key.toString('hex'), expected.get(key.toString('hex')) as Buffer]));
    const second = new Map(flipping.map((key) => [key.toString('hex'), randomBytes(32)]));
    let state = expected;
    let committing: { visible(): Promise<unknown> } | undefined;
    for (let round = 0; round < 6; round++) {
      const values = round % 2 === 0 ? second : first;
      const changes = flipping
        .map((key, i): StateChange => {
          const id = key.toString('hex');
          const value = i % 7 === round % 7 ? undefined : values.get(id);
          return { key, value, previous: state.get(id) };
        })
        .filter(({ value, previous }) => value !== undefined || previous !== undefined);
      const update = stateDb.prepareUpdate(changes);
      state = applied(state, changes);
      expect(update.root.equals(rootOfEntries(state))).toBe(true);
      await committing?.visible();
      committing = queue(changes, update);
    }
    await committing?.visible();
    await stateDb.flushed();
    expect(stateDb.root().equals(rootOfEntries(state))).toBe(true);
    const query = flipping.slice(0, 20).map(smtKeyFromStateKey);
    expect(verify(query, stateDb.prove(query), stateDb.root(), STATE_KEY_LENGTH)).toBe(true);
    const size = stateDb.treeSize();
    await reopen();
    expect(stateDb.treeSize()).toBe(size);
  });

  it('takes the tree back to the committed root when the queued commit fails for want of room', async () => {
    const before = stateDb.root();
    const size = stateDb.treeSize();
    // Room for nothing more than the file holds: a block of large new values must grow it.
    limitOwnFileSize(statSync(path).size);
    const failing = changesFor(1_500, expected, 1_000);
    const queued = queue(failing);
    expect(stateDb.treeSize()).toBeGreaterThan(size);
    // The next block computed on top of the failing one, as ChainProcessor.processBlocks does.
    const next = changesFor(300, applied(expected, failing));
    const nextOnFailed = stateDb.prepareUpdate(next);
    await expect(queued.visible()).rejects.toThrow(StoreWriteError);

    // Disk and tree are where they were: same root, same nodes, proofs and updates from there.
    expect(stateDb.root().equals(before)).toBe(true);
    expect(stateDb.treeSize()).toBe(size);
    const query = failing.slice(0, 8).map(({ key }) => smtKeyFromStateKey(key));
    expect(verify(query, stateDb.prove(query), before, STATE_KEY_LENGTH)).toBe(true);
    for (const { key } of failing) expect(stateDb.moduleReader.get(key)).toEqual(expected.get(key.toString('hex')));
    height -= 1;

    limitOwnFileSize('unlimited');
    // The same block again, on the committed state (the keys the failed block added are not there).
    const recomputed = next
      .map(({ key, value }) => ({ key, value, previous: expected.get(key.toString('hex')) }))
      .filter(({ value, previous }) => value !== undefined || previous !== undefined);
    const update = stateDb.prepareUpdate(recomputed);
    expect(update.root.equals(nextOnFailed.root)).toBe(false);
    const afterNext = applied(expected, recomputed);
    expect(update.root.equals(rootOfEntries(afterNext))).toBe(true);
    await queue(recomputed, update).visible();
    await stateDb.flushed();
    expect(stateDb.root().equals(rootOfEntries(afterNext))).toBe(true);
    const grown = stateDb.treeSize();
    await reopen();
    expect(stateDb.root().equals(rootOfEntries(afterNext))).toBe(true);
    expect(stateDb.treeSize()).toBe(grown);
  });
});
