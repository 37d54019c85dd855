/**
 * One child process run to completion, timed from spawn to exit, with the peak resident memory
 * of the largest process it started (itself or any descendant: lisk-migrator runs Lisk Core in
 * a child of its own). GNU time (`/usr/bin/time`) reports that peak exactly from the kernel's
 * accounting when it is installed; without it the process tree's VmHWM (/proc/<pid>/status) is
 * sampled every 100 ms, which can miss a short-lived descendant's peak and is then a lower bound.
 * GNU time also gives the tree's CPU time (user + system), which a busy neighbour does not inflate
 * the way it stretches the wall time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';

export interface MeasuredRunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Killed (with all its descendants) after this long; the result then says `timedOut`. */
  readonly timeoutMs: number;
  /** Every line the process writes to stderr, with the time it arrived (ms since spawn). */
  readonly onStderrLine?: (line: string, atMs: number) => void;
}

export interface MeasuredRun {
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** Peak RSS of the largest process of the tree, in MiB; null when it could not be read. */
  readonly peakRssMiB: number | null;
  /** User + system CPU seconds of the whole tree (GNU time only; null without it). */
  readonly cpuSeconds: number | null;
  /** How the peak was read. */
  readonly rssSource: 'GNU time' | '/proc sampling' | 'none';
  /** The last few KiB of stdout and stderr, for error messages. */
  readonly outputTail: string;
}

export async function measuredRun(command: string, args: readonly string[], options: MeasuredRunOptions): Promise<MeasuredRun> {
  const withTime = existsSync(GNU_TIME);
  const scratch = mkdtempSync(join(tmpdir(), 'basalt-bench-time-'));
  const timeFile = join(scratch, 'maxrss');
  const [file, argv] = withTime ? [GNU_TIME, ['-f', '%M %U %S', '-o', timeFile, command, ...args]] : [command, [...args]];
  const started = performance.now();
  // Its own process group, so that a timeout ends the whole tree and nothing else.
  const child = spawn(file, argv, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  };
  child.stdout.on('data', keep);
  let partial = '';
  child.stderr.on('data', (chunk: Buffer) => {
    keep(chunk);
    const at = performance.now() - started;
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) options.onStderrLine?.(line, at);
  });
  let sampledKiB = 0;
  const sampler = withTime
    ? undefined
    : setInterval(() => {
        if (child.pid !== undefined) sampledKiB = Math.max(sampledKiB, treePeakKiB(child.pid));
      }, 100);
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group ended on its own meanwhile.
    }
  };
  let timedOut = false;
  let killer: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    // GNU time ignores SIGINT, so it outlives the command and still reports its peak and CPU time.
    signalGroup('SIGINT');
    killer = setTimeout(() => signalGroup('SIGKILL'), 5000);
  }, options.timeoutMs);
  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });
    const wallMs = performance.now() - started;
    if (partial !== '') options.onStderrLine?.(partial, wallMs);
    let peakRssMiB: number | null = null;
    let cpuSeconds: number | null = null;
    let rssSource: MeasuredRun['rssSource'] = 'none';
    if (withTime && existsSync(timeFile)) {
      // GNU time writes "Command exited with non-zero status N" before the figures on failures.
      const [kib, user, system] = (readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '').split(' ').map(Number);
      if (kib !== undefined && Number.isFinite(kib) && kib > 0) [peakRssMiB, rssSource] = [kib / 1024, 'GNU time'];
      if (user !== undefined && system !== undefined && Number.isFinite(user + system)) cpuSeconds = user + system;
    } else if (sampledKiB > 0) {
      [peakRssMiB, rssSource] = [sampledKiB / 1024, '/proc sampling'];
    }
    // Under GNU time the command's own exit code is time's.
    return { wallMs, exitCode, timedOut, peakRssMiB, cpuSeconds, rssSource, outputTail: tail };
  } finally {
    clearTimeout(timer);
    clearTimeout(killer);
    if (sampler !== undefined) clearInterval(sampler);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The largest VmHWM (KiB) among `pid` and its descendants; 0 for processes already gone. */
function treePeakKiB(pid: number): number {
  let peak = 0;
  for (const current of processTree(pid)) {
    try {
      const hwm = /^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${current}/status`, 'utf8'));
      if (hwm !== null) peak = Math.max(peak, Number(hwm[1]));
    } catch {
      // The process exited meanwhile.
    }
  }
  return peak;
}

/** `pid` and every descendant of it alive now (from /proc), parents first. */
export function processTree(pid: number): number[] {
  const tree: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.shift() as number;
    try {
      for (const task of readdirSync(`/proc/${current}/task`)) {
        const children = readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').trim();
        if (children !== '') pending.push(...children.split(/\s+/).map(Number));
      }
      tree.push(current);
    } catch {
      // The process exited between two reads.
    }
  }
  return tree;
}
