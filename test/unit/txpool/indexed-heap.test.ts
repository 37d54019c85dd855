import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexedHeap } from '../../../src/engine/txpool/index.js';

interface Item {
  readonly key: number;
  readonly tag: number;
}

const before = (a: Item, b: Item) => a.key < b.key || (a.key === b.key && a.tag < b.tag);
const sorted = (items: readonly Item[]) => [...items].sort((a, b) => a.key - b.key || a.tag - b.tag);

describe('IndexedHeap', () => {
  it('pops in order and removes any element, like a sorted list (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), key: fc.integer({ min: 0, max: 20 }) }),
      fc.record({ kind: fc.constant('pop' as const) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const heap = new IndexedHeap<Item>(before);
        let model: Item[] = [];
        let tag = 0;
        for (const step of ops) {
          if (step.kind === 'push') {
            const item = { key: step.key, tag: tag++ };
            heap.push(item);
            model.push(item);
          } else if (step.kind === 'pop') {
            const expected = sorted(model)[0];
            expect(heap.pop()).toBe(expected);
            model = model.filter((item) => item !== expected);
          } else if (model.length > 0) {
            const victim = model[step.pick % model.length] as Item;
            expect(heap.remove(victim)).toBe(true);
            expect(heap.remove(victim)).toBe(false);
            model = model.filter((item) => item !== victim);
          }
          expect(heap.size).toBe(model.length);
          expect(heap.peek()).toBe(sorted(model)[0]);
        }
        const drained: Item[] = [];
        for (let item = heap.pop(); item !== undefined; item = heap.pop()) drained.push(item);
        expect(drained).toEqual(sorted(model));
      }),
      { numRuns: 300 },
    );
  });

  it('ignores a second push of the same element and reports membership', () => {
    const heap = new IndexedHeap<Item>(before);
    const item = { key: 1, tag: 0 };
    heap.push(item);
    heap.push(item);
    expect(heap.size).toBe(1);
    expect(heap.has(item)).toBe(true);
    expect(heap.values()).toEqual([item]);
    expect(heap.pop()).toBe(item);
    expect(heap.has(item)).toBe(false);
    expect(heap.pop()).toBeUndefined();
  });
});
