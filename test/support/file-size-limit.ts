import { execFileSync } from 'node:child_process';

/**
 * Sets this process's soft file size limit (RLIMIT_FSIZE, bytes, or 'unlimited'): a write past it
 * fails with EFBIG, as on a full disk (Node ignores SIGXFSZ), and LMDB's commit fails with it.
 * Vitest runs each test file in a process of its own (vitest.config.ts: pool forks), so the limit
 * reaches no other file; a test that sets one lifts it again in its afterEach.
 */
export function limitOwnFileSize(limit: number | 'unlimited'): void {
  execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${limit}:`]);
}
