import { describe, expect, it } from 'vitest';
import { CommittingState } from '../../../src/engine/committing-state.js';
import { MemoryState } from '../../../src/state/memory-state.js';
import { OverlayState } from '../../../src/state/overlay-state.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function key(next: () => number): Buffer {
  // Two-byte keys over a small alphabet: ranges hit stored keys, changed keys and both.
  return Buffer.from([Math.floor(next() * 6), Math.floor(next() * 6)]);
}

describe('CommittingState', () => {
  it('reads as the overlay whose net changes it holds, in front of the same stored state', () => {
    for (let round = 0; round < 200; round += 1) {
      const next = random(round + 1);
      const stored = new MemoryState(
        Array.from({ length: Math.floor(next() * 20) }, () => ({ key: key(next), value: Buffer.from([Math.floor(next() * 256)]) })),
      );
      const overlay = new OverlayState(stored);
      for (let write = Math.floor(next() * 20); write > 0; write -= 1) {
        const k = key(next);
        if (next() < 0.3) overlay.del(k);
        else overlay.set(k, next() < 0.2 ? (stored.get(k) ?? Buffer.from([7])) : Buffer.from([Math.floor(next() * 256)]));
      }
      const committing = new CommittingState(stored, overlay.changes());
      for (let read = 0; read < 20; read += 1) {
        const k = key(next);
        expect(committing.get(k)).toEqual(overlay.get(k));
        expect(committing.has(k)).toBe(overlay.has(k));
        const [a, b] = [key(next), key(next)].sort(Buffer.compare) as [Buffer, Buffer];
        const options = { gte: a, lte: b, reverse: next() < 0.5, limit: next() < 0.5 ? Math.floor(next() * 5) + 1 : undefined };
        expect(committing.iterate(options)).toEqual(overlay.iterate(options));
      }
    }
  });
});
