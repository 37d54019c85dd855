/**
 * stateTreeLeaves, the batched form of smtKeyFromStateKey / smtValueFromStateValue the state
 * tree uses, must give exactly the one-at-a-time results (LIP 0040) for any mix of key
 * lengths, empty values and deletions.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { smtKeyFromStateKey, smtValueFromStateValue } from '../../../src/merkle/index.js';
import { stateTreeLeaves } from '../../../src/state/state-tree.js';

describe('stateTreeLeaves', () => {
  it('matches smtKeyFromStateKey and smtValueFromStateValue entry by entry', () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({
      key: randomBytes(6 + (i % 41)),
      value: i % 7 === 0 ? undefined : randomBytes(i % 5 === 0 ? 0 : 1 + (i % 90)),
    }));
    const { keys, hashes } = stateTreeLeaves(entries);
    entries.forEach(({ key, value }, i) => {
      expect(keys[i]!.equals(smtKeyFromStateKey(key))).toBe(true);
      expect(hashes[i]!.equals(value === undefined ? Buffer.alloc(0) : smtValueFromStateValue(value))).toBe(true);
    });
  });

  it('gives nothing for nothing, and refuses a key shorter than a store prefix', () => {
    expect(stateTreeLeaves([])).toEqual({ keys: [], hashes: [] });
    expect(() => stateTreeLeaves([{ key: Buffer.from('0102', 'hex'), value: Buffer.alloc(1) }])).toThrow(/shorter than a store prefix/);
  });
});
