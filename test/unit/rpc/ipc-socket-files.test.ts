/**
 * Where the IPC sockets live and how their files are claimed and released (lisk-sdk
 * controller/ipc/ipc_server.ts): the directory of a data path, the file names, the path length
 * limit, stale-file removal, the refusal to touch a live socket or a non-socket file, and removal
 * of our own files only.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Router } from 'zeromq';
import {
  IPC_SOCKET_FILE_NAMES,
  MAX_SOCKET_PATH_BYTES,
  checkSocketPathLength,
  clearStaleSocketFile,
  ensureSocketDir,
  fileIdentity,
  ipcEndpoint,
  ipcSocketDir,
  ipcSocketPaths,
  removeOwnSocketFile,
} from '../../../src/rpc/ipc-socket-files.js';

const root = mkdtempSync(join(tmpdir(), 'basalt-ipcf-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshDir = (): string => {
  counter += 1;
  const dir = join(root, String(counter));
  mkdirSync(dir);
  return dir;
};

/** A socket file whose listener is gone, as a killed node leaves it (ZeroMQ does not unlink on close). */
async function staleSocketFile(path: string): Promise<void> {
  const router = new Router({ linger: 0 });
  await router.bind(ipcEndpoint(path));
  router.close();
  // The listener closes in ZeroMQ's I/O thread some time after close() returns (later on a busy
  // machine): the file is stale once a connection to it is refused.
  while (!(await connectionRefused(path))) await new Promise((resolvePromise) => setTimeout(resolvePromise, 10));
}

/** Whether connecting to the socket file is refused (false: something still accepts). */
function connectionRefused(path: string): Promise<boolean> {
  return new Promise((resolvePromise, reject) => {
    const connection = createConnection({ path });
    connection.once('connect', () => {
      connection.destroy();
      resolvePromise(false);
    });
    connection.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolvePromise(true) : reject(error)));
  });
}

function listen(path: string): Promise<Server> {
  return new Promise((resolvePromise) => {
    const server = createServer((connection) => connection.destroy());
    server.listen(path, () => resolvePromise(server));
  });
}

describe('ipcSocketDir', () => {
  it('is <dataPath>/tmp/sockets, absolute', () => {
    expect(ipcSocketDir('/srv/lisk/lisk-core')).toBe('/srv/lisk/lisk-core/tmp/sockets');
    expect(ipcSocketDir('/srv/lisk/')).toBe('/srv/lisk/tmp/sockets');
    expect(ipcSocketDir('data/node')).toBe(resolve('data/node', 'tmp', 'sockets'));
  });

  it("expands a leading ~ to the home directory, like Lisk's default ~/.lisk/lisk-core", () => {
    expect(ipcSocketDir('~/.lisk/lisk-core', '/home/alice')).toBe('/home/alice/.lisk/lisk-core/tmp/sockets');
    expect(ipcSocketDir('~', '/home/alice')).toBe('/home/alice/tmp/sockets');
    expect(ipcSocketDir('~/.lisk/lisk-core')).toBe(join(homedir(), '.lisk/lisk-core/tmp/sockets'));
  });

  it('leaves any other ~ alone', () => {
    expect(ipcSocketDir('/data/~node', '/home/alice')).toBe('/data/~node/tmp/sockets');
    expect(ipcSocketDir('~bob/x', '/home/alice')).toBe(resolve('~bob/x', 'tmp', 'sockets'));
  });
});

describe('socket names and endpoints', () => {
  it('uses the file names the api-client connects to', () => {
    expect(IPC_SOCKET_FILE_NAMES).toEqual({ rpc: 'engine.external.rpc.ipc', pub: 'external.pub.ipc', sub: 'external.sub.ipc' });
    expect(ipcSocketPaths('/d/tmp/sockets')).toEqual({
      rpc: '/d/tmp/sockets/engine.external.rpc.ipc',
      pub: '/d/tmp/sockets/external.pub.ipc',
      sub: '/d/tmp/sockets/external.sub.ipc',
    });
    expect(ipcEndpoint('/d/tmp/sockets/external.pub.ipc')).toBe('ipc:///d/tmp/sockets/external.pub.ipc');
  });
});

describe('checkSocketPathLength', () => {
  it('accepts paths up to the sun_path limit, counted in bytes', () => {
    expect(MAX_SOCKET_PATH_BYTES).toBe(process.platform === 'linux' ? 107 : 103);
    expect(() => checkSocketPathLength(`/${'a'.repeat(MAX_SOCKET_PATH_BYTES - 1)}`)).not.toThrow();
    expect(() => checkSocketPathLength(`/${'a'.repeat(MAX_SOCKET_PATH_BYTES)}`)).toThrow(
      `is ${MAX_SOCKET_PATH_BYTES + 1} bytes long, but Unix domain sockets allow at most ${MAX_SOCKET_PATH_BYTES}`,
    );
    // "é" is two bytes in UTF-8: few characters, too many bytes.
    const twoByteChars = `/${'é'.repeat(Math.ceil(MAX_SOCKET_PATH_BYTES / 2))}`;
    expect(twoByteChars.length).toBeLessThan(MAX_SOCKET_PATH_BYTES);
    expect(() => checkSocketPathLength(twoByteChars)).toThrow(expect.objectContaining({ code: 'ERR_RPC_IPC_PATH' }));
  });
});

describe('ensureSocketDir', () => {
  it('creates the directory and its parents, private to the user', async () => {
    const dir = join(freshDir(), 'tmp', 'sockets');
    await ensureSocketDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await ensureSocketDir(dir);
  });

  it('fails with a clear error when a file is in the way', async () => {
    const file = join(freshDir(), 'tmp');
    writeFileSync(file, '');
    await expect(ensureSocketDir(join(file, 'sockets'))).rejects.toMatchObject({
      code: 'ERR_RPC_IPC_DIR',
      message: `The IPC socket directory ${join(file, 'sockets')} cannot be created (ENOTDIR).`,
    });
  });
});

describe('clearStaleSocketFile', () => {
  it('does nothing when there is no file', async () => {
    const path = join(freshDir(), 'external.pub.ipc');
    await clearStaleSocketFile(path);
    expect(existsSync(path)).toBe(false);
  });

  it('removes a socket file nobody listens on', async () => {
    const path = join(freshDir(), 'engine.external.rpc.ipc');
    await staleSocketFile(path);
    expect(lstatSync(path).isSocket()).toBe(true);
    await clearStaleSocketFile(path);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a socket some process still serves, and keeps it', async () => {
    const path = join(freshDir(), 'external.pub.ipc');
    const server = await listen(path);
    try {
      await expect(clearStaleSocketFile(path)).rejects.toMatchObject({
        code: 'ERR_RPC_IPC_IN_USE',
        message: `Another process serves the IPC socket ${path}: is another node running on this data path?`,
      });
      expect(lstatSync(path).isSocket()).toBe(true);
    } finally {
      await new Promise((resolvePromise) => server.close(resolvePromise));
    }
  });

  it('refuses a path that holds something other than a socket, and keeps it', async () => {
    const dir = freshDir();
    const file = join(dir, 'external.sub.ipc');
    writeFileSync(file, 'keep me');
    await expect(clearStaleSocketFile(file)).rejects.toMatchObject({
      code: 'ERR_RPC_IPC_PATH',
      message: `${file} exists and is not a socket; it is left alone. Remove it or use another data path.`,
    });
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    const subDir = join(dir, 'engine.external.rpc.ipc');
    mkdirSync(subDir);
    await expect(clearStaleSocketFile(subDir)).rejects.toMatchObject({ code: 'ERR_RPC_IPC_PATH' });
    expect(statSync(subDir).isDirectory()).toBe(true);
  });
});

describe('removeOwnSocketFile', () => {
  it('removes the file it was given the identity of', async () => {
    const path = join(freshDir(), 'external.pub.ipc');
    await staleSocketFile(path);
    const identity = await fileIdentity(path);
    expect(identity).toBeDefined();
    expect(await removeOwnSocketFile(path, identity as NonNullable<typeof identity>)).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(await removeOwnSocketFile(path, identity as NonNullable<typeof identity>)).toBe(false);
  });

  it('keeps a file another process put at the same path since', async () => {
    const path = join(freshDir(), 'external.pub.ipc');
    await staleSocketFile(path);
    const ours = await fileIdentity(path);
    // Bound elsewhere, then renamed over ours: the old inode is still in use, so the new file gets another.
    const server = await listen(`${path}.new`);
    renameSync(`${path}.new`, path);
    try {
      expect(await removeOwnSocketFile(path, ours as NonNullable<typeof ours>)).toBe(false);
      expect(lstatSync(path).isSocket()).toBe(true);
    } finally {
      await new Promise((resolvePromise) => server.close(resolvePromise));
    }
  });

  it('has no identity for a missing file', async () => {
    expect(await fileIdentity(join(freshDir(), 'none'))).toBeUndefined();
  });
});
