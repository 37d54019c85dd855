import { spawn } from 'node:child_process';
import { watch, type FSWatcher } from 'node:fs';
import { dirname, basename } from 'node:path';
import { BASALT_ROOT, basaltProcessArgs } from './cli.js';

export interface KillOptions {
  /**
   * Counts `killAfterMs` from the first write to this file (its first commit: a store's first
   * block of the run) instead of from the start, so that kills land in the work and not in a
   * start-up whose length depends on how busy the machine is.
   */
  readonly afterFirstWriteTo?: string;
}

/**
 * Starts `basalt` from the sources and SIGKILLs it after `killAfterMs` (if still running).
 * Resolves with whether it was killed (or its exit code when it finished first).
 */
export function runBasaltAndKill(
  args: readonly string[],
  killAfterMs: number,
  options: KillOptions = {},
): Promise<{ killed: boolean; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, basaltProcessArgs(args), { cwd: BASALT_ROOT, stdio: ['ignore', 'ignore', 'ignore'] });
    let killed = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      timer ??= setTimeout(() => {
        killed = child.kill('SIGKILL');
      }, killAfterMs);
    };
    const file = options.afterFirstWriteTo;
    let watcher: FSWatcher | undefined;
    if (file === undefined) {
      arm();
    } else {
      // The directory is watched: the file may not exist yet.
      watcher = watch(dirname(file), (event, name) => {
        if (event === 'change' && name === basename(file)) arm();
      });
    }
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      watcher?.close();
      resolve({ killed, code });
    });
  });
}
