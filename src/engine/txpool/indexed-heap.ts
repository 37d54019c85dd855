/**
 * A binary heap that can also remove any element it holds in O(log n), which the pool needs:
 * transactions leave it for many reasons (included, replaced, expired, evicted), not only from
 * the top. Positions are tracked in a Map, so an element may sit in several heaps at once.
 */
export class IndexedHeap<T extends object> {
  private readonly items: T[] = [];
  private readonly positions = new Map<T, number>();

  /** `before(a, b)` is true when `a` must come out first. */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  has(item: T): boolean {
    return this.positions.has(item);
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    if (this.positions.has(item)) return;
    this.items.push(item);
    this.positions.set(item, this.items.length - 1);
    this.siftUp(this.items.length - 1);
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top !== undefined) this.remove(top);
    return top;
  }

  /** Removes `item` wherever it is; returns false when the heap does not hold it. */
  remove(item: T): boolean {
    const index = this.positions.get(item);
    if (index === undefined) return false;
    this.positions.delete(item);
    const last = this.items.pop() as T;
    if (index < this.items.length) {
      this.items[index] = last;
      this.positions.set(last, index);
      // The moved element may belong above or below its new place.
      this.siftUp(index);
      this.siftDown(this.positions.get(last) as number);
    }
    return true;
  }

  /** The elements in heap order (not sorted); for inspection and tests. */
  values(): readonly T[] {
    return this.items;
  }

  private siftUp(start: number): void {
    let index = start;
    const item = this.items[index] as T;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = this.items[parentIndex] as T;
      if (!this.before(item, parent)) break;
      this.place(parent, index);
      index = parentIndex;
    }
    this.place(item, index);
  }

  private siftDown(start: number): void {
    let index = start;
    const item = this.items[index] as T;
    const length = this.items.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = left;
      if (right < length && this.before(this.items[right] as T, this.items[left] as T)) child = right;
      const childItem = this.items[child] as T;
      if (!this.before(childItem, item)) break;
      this.place(childItem, index);
      index = child;
    }
    this.place(item, index);
  }

  private place(item: T, index: number): void {
    this.items[index] = item;
    this.positions.set(item, index);
  }
}
