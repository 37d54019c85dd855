/**
 * Runs the `basalt` command from the TypeScript sources in a child process, as a user would
 * run it (a real process, real files), without depending on a possibly stale dist/ build.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The `node` arguments that run `basalt args...` from the sources (spawn them with `cwd: BASALT_ROOT`). */
export function basaltProcessArgs(args: readonly string[]): string[] {
  return ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args];
}

/** The repository root, where `tsx` resolves. */
export const BASALT_ROOT = ROOT;

/**
 * `command` (file and arguments) run under a file size limit in KiB (RLIMIT_FSIZE) when one is
 * given: bash's `ulimit -f` then `exec`, so the command is still the spawned process and signals
 * reach it. A write past the limit fails as on a full disk (Node ignores SIGXFSZ: the write gets
 * EFBIG instead of the process dying).
 */
export function withFileSizeLimit(command: readonly string[], fileSizeKiB: number | undefined): string[] {
  if (fileSizeKiB === undefined) return [...command];
  return ['bash', '-c', `ulimit -f ${Math.floor(fileSizeKiB)} && exec "$@"`, 'bash', ...command];
}

export interface RunBasaltOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  /** The largest file the command may write, in KiB (bash's `ulimit -f`): past it, writes fail as on a full disk. */
  fileSizeKiB?: number;
}

export function runBasalt(args: readonly string[], options: RunBasaltOptions = {}): Promise<CliResult> {
  const [file, ...argv] = withFileSizeLimit([process.execPath, ...basaltProcessArgs(args)], options.fileSizeKiB);
  return new Promise((resolve, reject) => {
    const child = spawn(file as string, argv, {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
