/**
 * Lisk's `<dataPath>/tmp/pids/controller.pid`: written with this process's id, a stale file
 * (its process gone) replaced with a log line, a live one refused, removed at a clean stop.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../../src/logger.js';
import { ApplicationRunningError, ControllerPidFile, controllerPidPath } from '../../../src/runtime/controller-pid-file.js';

/** The id of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function recordingLogger(): Logger & { messages: string[] } {
  const messages: string[] = [];
  return { ...silentLogger, info: (_fields, message) => messages.push(message ?? ''), child: () => silentLogger, messages };
}

describe('ControllerPidFile', () => {
  let dataPath: string;
  beforeEach(() => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-pid-'));
  });
  afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

  it('writes the process id where lisk-commander reads it, owner-only, and removes it', () => {
    const path = controllerPidPath(dataPath);
    expect(path).toBe(join(dataPath, 'tmp', 'pids', 'controller.pid'));
    const file = ControllerPidFile.write(dataPath, silentLogger);
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    file.remove();
    expect(existsSync(path)).toBe(false);
    file.remove();
  });

  it('replaces a stale file with a log line', () => {
    const path = controllerPidPath(dataPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, String(deadPid()));
    const logger = recordingLogger();
    ControllerPidFile.write(dataPath, logger);
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
    expect(logger.messages).toEqual(['Replacing a stale controller.pid: its process is gone']);
  });

  it('refuses a file that names a live process, and leaves it as it was', () => {
    const path = controllerPidPath(dataPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, String(process.ppid));
    expect(() => ControllerPidFile.write(dataPath, silentLogger)).toThrow(ApplicationRunningError);
    expect(readFileSync(path, 'utf8')).toBe(String(process.ppid));
  });

  it('leaves a file another process wrote since', () => {
    const file = ControllerPidFile.write(dataPath, silentLogger);
    writeFileSync(controllerPidPath(dataPath), '12345');
    file.remove();
    expect(readFileSync(controllerPidPath(dataPath), 'utf8')).toBe('12345');
  });
});
