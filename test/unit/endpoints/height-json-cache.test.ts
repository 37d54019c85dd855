import { describe, expect, it } from 'vitest';
import { HeightJsonCache } from '../../../src/rpc/endpoints/height-json-cache.js';

describe('HeightJsonCache', () => {
  it('returns what was stored and counts the characters it holds', () => {
    const cache = new HeightJsonCache(100);
    cache.set(1, '{"a":1}');
    cache.set(2, '[]');
    expect(cache.get(1)).toBe('{"a":1}');
    expect(cache.get(2)).toBe('[]');
    expect(cache.get(3)).toBeUndefined();
    expect(cache.size).toBe(2);
    expect(cache.chars).toBe(9);
  });

  it('evicts the least recently used entries once the character budget is exceeded', () => {
    const cache = new HeightJsonCache(10);
    cache.set(1, 'aaaa');
    cache.set(2, 'bbbb');
    expect(cache.get(1)).toBe('aaaa'); // 1 is now more recent than 2
    cache.set(3, 'cccc');
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBe('aaaa');
    expect(cache.get(3)).toBe('cccc');
    expect(cache.chars).toBe(8);
  });

  it('replaces an entry stored again under the same height', () => {
    const cache = new HeightJsonCache(10);
    cache.set(1, 'aaaa');
    cache.set(1, 'bb');
    expect(cache.get(1)).toBe('bb');
    expect(cache.chars).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('never stores a text larger than the whole budget, and stores nothing with budget 0', () => {
    const cache = new HeightJsonCache(3);
    cache.set(1, 'abcd');
    expect(cache.get(1)).toBeUndefined();
    const off = new HeightJsonCache(0);
    off.set(1, 'a');
    expect(off.size).toBe(0);
  });

  it('drops every entry above a height', () => {
    const cache = new HeightJsonCache(100);
    for (const height of [5, 1, 9, 3, 7]) cache.set(height, `${height}`);
    cache.dropAbove(4);
    expect([1, 3, 5, 7, 9].map((height) => cache.get(height))).toEqual(['1', '3', undefined, undefined, undefined]);
    expect(cache.chars).toBe(2);
  });
});

describe('HeightJsonCache eviction with hits that do not reorder the map', () => {
  it('keeps an entry hit since the last eviction and drops the oldest one not hit', () => {
    const cache = new HeightJsonCache(12);
    cache.set(1, 'aaaa');
    cache.set(2, 'bbbb');
    cache.set(3, 'cccc');
    expect(cache.get(1)).toBe('aaaa');
    expect(cache.get(2)).toBe('bbbb');
    cache.set(4, 'dddd'); // 1 and 2 were hit: 3 is the least recently used
    expect(cache.get(3)).toBeUndefined();
    expect([1, 2, 4].map((height) => cache.get(height))).toEqual(['aaaa', 'bbbb', 'dddd']);
    expect(cache.chars).toBe(12);
  });

  it('evicts in insertion order when every entry was hit, and never exceeds the budget', () => {
    const cache = new HeightJsonCache(8);
    cache.set(1, 'aaaa');
    cache.set(2, 'bbbb');
    cache.get(1);
    cache.get(2);
    cache.set(3, 'cccc');
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBe('bbbb');
    expect(cache.get(3)).toBe('cccc');
    expect(cache.chars).toBe(8);
    cache.set(4, 'dddddddd'); // fills the whole budget alone
    expect(cache.size).toBe(1);
    expect(cache.get(4)).toBe('dddddddd');
  });
});
