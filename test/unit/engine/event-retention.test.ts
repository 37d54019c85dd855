import { describe, expect, it } from 'vitest';
import { eventsPrunableUpTo } from '../../../src/engine/event-retention.js';

describe('eventsPrunableUpTo (lisk-sdk storage _cleanUntil)', () => {
  it('keeps everything with -1', () => {
    expect(eventsPrunableUpTo(-1, 10_000, 9_000)).toBe(-1);
  });

  it('drops the heights below tip - keep when they are finalized', () => {
    // Heights 0..94 go: 95 = 100 - 5 is the first one kept.
    expect(eventsPrunableUpTo(5, 100, 98)).toBe(94);
    expect(eventsPrunableUpTo(0, 100, 100)).toBe(99);
  });

  it('never drops a height at or above the finalized height', () => {
    expect(eventsPrunableUpTo(5, 100, 40)).toBe(39);
    expect(eventsPrunableUpTo(0, 100, 0)).toBe(-1);
  });

  it('drops nothing while the chain is shorter than keep', () => {
    expect(eventsPrunableUpTo(300, 200, 150)).toBe(-1);
    expect(eventsPrunableUpTo(5, 6, 6)).toBe(0);
  });
});
