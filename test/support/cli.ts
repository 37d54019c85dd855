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

export function runBasalt(args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, basaltProcessArgs(args), {
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
