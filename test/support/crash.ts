import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Starts `basalt` from the sources and SIGKILLs it after `killAfterMs` (if still running).
 * Resolves with the signal that ended it (or its exit code when it finished first).
 */
export function runBasaltAndKill(args: readonly string[], killAfterMs: number): Promise<{ killed: boolean; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    let killed = false;
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ killed, code });
    });
  });
}
