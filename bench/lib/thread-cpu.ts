/**
 * CPU time of a running process split by thread, from /proc/<pid>/task/<tid>/stat (utime +
 * stime, in clock ticks of 10 ms): the main thread, where a Node.js server answers its requests,
 * and every other thread (V8's compiler and GC helpers, worker threads, libuv's pool). A busy
 * neighbour stretches wall time, not these. Linux only; elsewhere the figures are undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  /** Milliseconds of CPU of the main thread (thread id = process id). */
  readonly mainMs: number;
  /** Milliseconds of CPU of the other threads alive at the reading. */
  readonly otherMs: number;
}

const TICK_MS = 10;

/** The CPU the threads of `pid` used so far; undefined without /proc. */
export function threadCpu(pid: number): ThreadCpu | undefined {
  let mainMs = 0;
  let otherMs = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // Fields after the command name (which may hold spaces): state is the first, utime the 12th.
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    if (task === String(pid)) mainMs += ms;
    else otherMs += ms;
  }
  return { mainMs, otherMs };
}

/** CPU used between two readings of the same process (threads that ended in between are lost). */
export function cpuBetween(before: ThreadCpu | undefined, after: ThreadCpu | undefined): ThreadCpu | undefined {
  if (before === undefined || after === undefined) return undefined;
  return { mainMs: after.mainMs - before.mainMs, otherMs: Math.max(0, after.otherMs - before.otherMs) };
}
