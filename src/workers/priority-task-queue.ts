/**
 * The pool's waiting line, in priority classes (docs/architecture.md §1): a thread that frees up
 * takes the oldest task of the most urgent class that has one. Without classes, a block's
 * signature checks would wait behind every RPC read and txpool batch queued before them, and a
 * flood of posted transactions would delay consensus by as long as the flood takes.
 *
 * Piscina accepts any queue with its `TaskQueue` shape (`taskQueue` option); each task carries
 * its class under Piscina's `queueOptionsSymbol`, which structured cloning ignores, so the class
 * never travels to the thread.
 */
import { queueOptionsSymbol, type PiscinaTask, type TaskQueue } from 'piscina';

/**
 * Who waits for a task, most urgent first:
 * - `consensus`: a block's signature checks, its state-tree update, proofs of possession it
 *   registers, commit and certificate checks: the node's progress on the chain waits for them.
 * - `block-serving`: blocks read for peers (getBlocksFromId): a peer times out after 2 s.
 * - `reads`: transaction pool checks and RPC reads: a client waits, but consensus must not.
 */
export type TaskPriority = 'consensus' | 'block-serving' | 'reads';

/** The classes in the order a free thread serves them. */
export const TASK_PRIORITIES: readonly TaskPriority[] = ['consensus', 'block-serving', 'reads'];

/** What a task carries under `queueOptionsSymbol`. */
export interface TaskQueueOptions {
  readonly priority: TaskPriority;
}

/** Piscina's task (its TaskInfo, typed loosely there) as this queue sees it. */
type QueuedTask = Parameters<TaskQueue['push']>[0];

/** The class of `task`; a task that names none is served last, so it never overtakes consensus. */
function priorityOf(task: QueuedTask): TaskPriority {
  const options = (task as PiscinaTask)[queueOptionsSymbol as never] as TaskQueueOptions | null | undefined;
  return options?.priority ?? 'reads';
}

/** A FIFO that does not copy the array on every shift (Array#shift does, for large queues). */
class Fifo {
  private items: QueuedTask[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(task: QueuedTask): void {
    this.items.push(task);
  }

  unshift(task: QueuedTask): void {
    if (this.head > 0) {
      this.head -= 1;
      this.items[this.head] = task;
    } else {
      this.items.unshift(task);
    }
  }

  shift(): QueuedTask | null {
    if (this.head >= this.items.length) return null;
    const task = this.items[this.head] as QueuedTask;
    this.head += 1;
    // Drop the consumed prefix once it is most of the array, so memory follows the queue.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return task;
  }

  remove(task: QueuedTask): boolean {
    const index = this.items.indexOf(task, this.head);
    if (index === -1) return false;
    this.items.splice(index, 1);
    return true;
  }
}

export class PriorityTaskQueue implements TaskQueue {
  private readonly lines = new Map<TaskPriority, Fifo>(TASK_PRIORITIES.map((priority) => [priority, new Fifo()]));

  get size(): number {
    let size = 0;
    for (const line of this.lines.values()) size += line.size;
    return size;
  }

  /** Tasks waiting in class `priority`. */
  sizeOf(priority: TaskPriority): number {
    return this.line(priority).size;
  }

  push(task: QueuedTask): void {
    this.line(priorityOf(task)).push(task);
  }

  /** Piscina puts back a task it could not hand out: first of its class, not ahead of a more urgent one. */
  unshift(task: QueuedTask): void {
    this.line(priorityOf(task)).unshift(task);
  }

  shift(): QueuedTask | null {
    for (const line of this.lines.values()) {
      if (line.size > 0) return line.shift();
    }
    return null;
  }

  remove(task: QueuedTask): void {
    this.line(priorityOf(task)).remove(task);
  }

  private line(priority: TaskPriority): Fifo {
    return this.lines.get(priority) as Fifo;
  }
}
