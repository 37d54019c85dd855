import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BasaltError, StoreError } from '../errors.js';

/** A data directory another live node already runs on. */
export class DataDirLockedError extends BasaltError {
  constructor(dataPath: string, pid: number) {
    super('ERR_DATA_DIR_LOCKED', `The data directory ${dataPath} is in use by another Basalt node (process ${pid}).`);
  }
}

const LOCK_FILE = 'basalt.lock';

/** Whether process `pid` exists (EPERM: it does, under another user; lisk-commander reads it so too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive claim on a data directory: a lock file holding the owner's process id, created
 * atomically (O_EXCL). A lock left by a killed node (its process is gone) is taken over; a live
 * owner's lock refuses the second node before it touches anything.
 */
export class DataDirLock {
  private constructor(private readonly path: string) {}

  static acquire(dataPath: string): DataDirLock {
    mkdirSync(dataPath, { recursive: true });
    const path = join(dataPath, LOCK_FILE);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return new DataDirLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
        if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) throw new DataDirLockedError(dataPath, owner);
        unlinkSync(path); // stale: its node was killed
      }
    }
    throw new StoreError(`Could not lock the data directory ${dataPath}.`);
  }

  release(): void {
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}
