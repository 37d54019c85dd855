/**
 * The pool's queue on its own: the most urgent class first, first come first served within a
 * class, a task put back (unshift) first of its class only, removal from any class, and a task
 * that names no class served last.
 */
import { queueOptionsSymbol } from 'piscina';
import { describe, expect, it } from 'vitest';
import { PriorityTaskQueue, type TaskPriority } from '../../../src/workers/priority-task-queue.js';

type Task = Parameters<PriorityTaskQueue['push']>[0];

function task(label: string, priority?: TaskPriority): Task & { label: string } {
  return { label, [queueOptionsSymbol]: priority === undefined ? null : { priority } } as unknown as Task & { label: string };
}

function drain(queue: PriorityTaskQueue): string[] {
  const labels: string[] = [];
  for (let next = queue.shift(); next !== null; next = queue.shift()) labels.push((next as unknown as { label: string }).label);
  return labels;
}

describe('PriorityTaskQueue', () => {
  it('serves consensus, then block serving, then reads, each in arrival order', () => {
    const queue = new PriorityTaskQueue();
    for (const [label, priority] of [
      ['r1', 'reads'],
      ['s1', 'block-serving'],
      ['c1', 'consensus'],
      ['r2', 'reads'],
      ['c2', 'consensus'],
      ['none', undefined],
      ['s2', 'block-serving'],
    ] as const) {
      queue.push(task(label, priority));
    }
    expect(queue.size).toBe(7);
    expect(queue.sizeOf('reads')).toBe(3);
    expect(drain(queue)).toEqual(['c1', 'c2', 's1', 's2', 'r1', 'r2', 'none']);
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeNull();
  });

  it('puts a task back first of its class, not ahead of a more urgent one', () => {
    const queue = new PriorityTaskQueue();
    queue.push(task('c1', 'consensus'));
    queue.push(task('r1', 'reads'));
    const taken = queue.shift() as Task;
    queue.push(task('r2', 'reads'));
    queue.unshift(task('r0', 'reads'));
    queue.unshift(taken);
    expect(drain(queue)).toEqual(['c1', 'r0', 'r1', 'r2']);
  });

  it('removes a waiting task from whichever class holds it, also after others were served', () => {
    const queue = new PriorityTaskQueue();
    const tasks = Array.from({ length: 2000 }, (_, i) => task(`r${i}`, 'reads'));
    for (const t of tasks) queue.push(t);
    const served = Array.from({ length: 1500 }, () => queue.shift());
    expect(served.at(-1)).toBe(tasks[1499]);
    queue.remove(tasks[1700] as Task);
    const serving = task('s', 'block-serving');
    queue.push(serving);
    queue.remove(serving);
    expect(queue.size).toBe(499);
    expect(drain(queue)).toEqual(
      tasks
        .slice(1500)
        .filter((_t, i) => i !== 200)
        .map((t) => t.label),
    );
  });
});
