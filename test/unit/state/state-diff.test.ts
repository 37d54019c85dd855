/**
 * The stored form of a block's state diff: the packed form round-trips every change (absent and
 * empty previous values told apart), diffs stored in the earlier codec form are still read, and
 * a damaged packed diff is a store error, never a wrong revert.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import type { StateChange } from '../../../src/state/overlay-state.js';
import { decodeStateDiff, encodeCodecStateDiff, encodeStateDiff } from '../../../src/state/state-diff.js';

const changes = (count: number): StateChange[] =>
  Array.from({ length: count }, (_, i) => ({
    key: randomBytes(6 + (i % 40)),
    value: randomBytes(8),
    previous: i % 3 === 0 ? undefined : i % 3 === 1 ? Buffer.alloc(0) : randomBytes(i % 300),
  }));
const stored = (list: readonly StateChange[]) =>
  list.map(({ key, previous }) => ({ key, existed: previous !== undefined, previous: previous ?? Buffer.alloc(0) }));

describe('state diff encoding', () => {
  it('round-trips module and engine changes, and decodes the codec form the same', () => {
    const root = randomBytes(32);
    const moduleChanges = changes(500);
    const engineChanges = changes(7);
    const expected = { previousRoot: root, moduleChanges: stored(moduleChanges), engineChanges: stored(engineChanges) };
    expect(decodeStateDiff(encodeStateDiff(root, moduleChanges, engineChanges))).toEqual(expected);
    expect(decodeStateDiff(encodeCodecStateDiff(expected))).toEqual(expected);
    expect(decodeStateDiff(encodeStateDiff(root, [], []))).toEqual({ previousRoot: root, moduleChanges: [], engineChanges: [] });
  });

  it('a cut-short or padded packed diff is a store error', () => {
    const bytes = encodeStateDiff(randomBytes(32), changes(20), changes(2));
    for (const length of [3, 20, bytes.length - 1]) expect(() => decodeStateDiff(bytes.subarray(0, length))).toThrow(StoreError);
    expect(() => decodeStateDiff(Buffer.concat([bytes, Buffer.from([0])]))).toThrow(StoreError);
  });
});
