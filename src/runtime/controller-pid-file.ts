/**
 * `<dataPath>/tmp/pids/controller.pid`, the file through which Lisk's own CLI (lisk-commander 6.1
 * `endpoint:invoke -d`, `transaction:send`, `blockchain:reset`, ...) tells whether a node runs on
 * a data directory before it talks to its IPC sockets in `<dataPath>/tmp/sockets`. Its rules are
 * lisk-sdk's (framework/src/application.ts, commander/src/utils/application.ts): the file holds
 * the process id in decimal; a file whose process is gone is stale and replaced; a live one means
 * another node (Basalt or Lisk Core) runs there, and this one refuses to start. It sits beside
 * Basalt's own lock (data-dir-lock.ts), which stays the guard against two Basalt nodes.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BasaltError } from '../errors.js';
import type { Logger } from '../logger.js';
import { isAlive } from './data-dir-lock.js';

/** A live process already holds the data directory's controller.pid. */
export class ApplicationRunningError extends BasaltError {
  constructor(dataPath: string, pidPath: string, pid: number) {
    super(
      'ERR_APPLICATION_RUNNING',
      `Another node (process ${pid}) is running on the data directory ${dataPath}: ${pidPath} names it. Stop it, or use another data directory.`,
    );
  }
}

/** Where Lisk's CLI looks for the node's process id. */
export function controllerPidPath(dataPath: string): string {
  return join(dataPath, 'tmp', 'pids', 'controller.pid');
}

export class ControllerPidFile {
  private constructor(private readonly path: string) {}

  /**
   * Writes this process's id (owner read/write only, as lisk-sdk does). A file naming a live
   * process other than this one refuses with ApplicationRunningError; a stale one is replaced,
   * with a log line saying whose it was.
   */
  static write(dataPath: string, logger: Logger): ControllerPidFile {
    const path = controllerPidPath(dataPath);
    let previous: number | undefined;
    try {
      previous = Number.parseInt(readFileSync(path, 'utf8'), 10);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (previous !== undefined) {
      if (Number.isInteger(previous) && previous > 0 && previous !== process.pid && isAlive(previous)) {
        throw new ApplicationRunningError(dataPath, path, previous);
      }
      logger.info({ path, previousPid: Number.isNaN(previous) ? null : previous }, 'Replacing a stale controller.pid: its process is gone');
    }
    mkdirSync(join(dataPath, 'tmp', 'pids'), { recursive: true });
    writeFileSync(path, String(process.pid), { mode: 0o600 });
    return new ControllerPidFile(path);
  }

  /** Removes the file at a clean stop, unless another process has written its own id since. */
  remove(): void {
    try {
      if (readFileSync(this.path, 'utf8') === String(process.pid)) unlinkSync(this.path);
    } catch {
      // Already gone.
    }
  }
}
