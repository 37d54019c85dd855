/**
 * Where the IPC transport's Unix domain sockets live and how their files are claimed and released
 * (lisk-sdk controller/ipc/ipc_server.ts): `<dataPath>/tmp/sockets`, the file names
 * `@liskhq/lisk-api-client` connects to, the removal of stale files left by a node that was killed,
 * and the refusal to take over the sockets of a node that is still running.
 */
import { lstat, mkdir, unlink } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { BasaltError } from '../errors.js';

/** The client-facing socket files; the names are fixed by Lisk's clients. */
export const IPC_SOCKET_FILE_NAMES = {
  /** ROUTER: requests in, answers out. */
  rpc: 'engine.external.rpc.ipc',
  /** PUB: events as `[eventName, notification]`. */
  pub: 'external.pub.ipc',
  /** SUB: bound and subscribed to everything like Lisk's, never read. */
  sub: 'external.sub.ipc',
} as const;

export type IpcSocketRole = keyof typeof IPC_SOCKET_FILE_NAMES;

/** Absolute paths of the three socket files. */
export type IpcSocketPaths = Readonly<Record<IpcSocketRole, string>>;

/**
 * `sun_path` holds 108 bytes on Linux and 104 on macOS and the BSDs, including the final NUL.
 * A longer path cannot be bound (ENAMETOOLONG) nor reached by a client.
 */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

// How long a stale-file probe waits for a connection before it assumes a live but stuck owner.
const PROBE_TIMEOUT_MS = 2_000;

/** The identity of a file, to recognise "our" socket file at shutdown. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * The socket directory of a data path: `<dataPath>/tmp/sockets`, absolute,
 * with a leading `~` (alone or followed by `/`) replaced by the home directory, as Lisk's
 * clients expect for the default `~/.lisk/lisk-core`.
 */
export function ipcSocketDir(dataPath: string, home: string = homedir()): string {
  const expanded = dataPath === '~' || dataPath.startsWith('~/') ? home + dataPath.slice(1) : dataPath;
  return join(resolve(expanded), 'tmp', 'sockets');
}

/** The socket file paths in `socketDir`. */
export function ipcSocketPaths(socketDir: string): IpcSocketPaths {
  return {
    rpc: join(socketDir, IPC_SOCKET_FILE_NAMES.rpc),
    pub: join(socketDir, IPC_SOCKET_FILE_NAMES.pub),
    sub: join(socketDir, IPC_SOCKET_FILE_NAMES.sub),
  };
}

/** The ZeroMQ endpoint of a socket file. */
export function ipcEndpoint(socketPath: string): string {
  return `ipc://${socketPath}`;
}

/** Throws a clear error when `socketPath` is too long for a Unix domain socket. */
export function checkSocketPathLength(socketPath: string): void {
  const bytes = Buffer.byteLength(socketPath);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new BasaltError(
      'ERR_RPC_IPC_PATH',
      `The IPC socket path ${socketPath} is ${bytes} bytes long, but Unix domain sockets allow at most ` +
        `${MAX_SOCKET_PATH_BYTES}: use a shorter data path or leave "ipc" out of rpc.modes.`,
    );
  }
}

/**
 * Creates the socket directory. A directory created here is private to the node's user
 * (0700): whoever can reach the sockets can call every allowed RPC method.
 */
export async function ensureSocketDir(socketDir: string): Promise<void> {
  try {
    await mkdir(socketDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new BasaltError('ERR_RPC_IPC_DIR', `The IPC socket directory ${socketDir} cannot be created (${codeOf(error)}).`, {
      cause: error,
    });
  }
}

/**
 * Makes `socketPath` free for a bind. A socket file nobody listens on (left by a node that
 * was killed) is removed. Throws BasaltError when another process still serves that socket
 * (another node on the same data path: binding would silently steal its clients), or when
 * the path holds something other than a socket (it is not ours to delete).
 */
export async function clearStaleSocketFile(socketPath: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = (await lstat(socketPath)).isSocket();
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    throw new BasaltError('ERR_RPC_IPC_PATH', `The IPC socket path ${socketPath} cannot be inspected (${codeOf(error)}).`, {
      cause: error,
    });
  }
  if (!isSocket) {
    throw new BasaltError(
      'ERR_RPC_IPC_PATH',
      `${socketPath} exists and is not a socket; it is left alone. Remove it or use another data path.`,
    );
  }
  const probe = await probeSocket(socketPath);
  if (probe === 'live') {
    throw new BasaltError(
      'ERR_RPC_IPC_IN_USE',
      `Another process serves the IPC socket ${socketPath}: is another node running on this data path?`,
    );
  }
  if (probe === 'stale') await unlinkIgnoringMissing(socketPath);
}

/** The identity of the file at `path`, or undefined when there is none. */
export async function fileIdentity(path: string): Promise<FileIdentity | undefined> {
  try {
    const stats = await lstat(path);
    return { dev: stats.dev, ino: stats.ino };
  } catch {
    return undefined;
  }
}

/**
 * Removes `path` if it is still the file identified by `identity`, so that a node never deletes
 * the socket of another node that took the path over after it. Returns whether it removed it.
 */
export async function removeOwnSocketFile(path: string, identity: FileIdentity): Promise<boolean> {
  const current = await fileIdentity(path);
  if (current === undefined || current.dev !== identity.dev || current.ino !== identity.ino) return false;
  return unlinkIgnoringMissing(path);
}

type ProbeResult = 'live' | 'stale' | 'gone';

/** Connects to `socketPath` to learn whether some process accepts connections on it. */
function probeSocket(socketPath: string): Promise<ProbeResult> {
  return new Promise((resolvePromise, reject) => {
    const connection = createConnection({ path: socketPath });
    const finish = (result: ProbeResult | Error): void => {
      clearTimeout(timer);
      connection.destroy();
      if (result instanceof Error) reject(result);
      else resolvePromise(result);
    };
    // A listener whose backlog is full, or that does not accept, is still alive.
    const timer = setTimeout(() => finish('live'), PROBE_TIMEOUT_MS);
    connection.once('connect', () => finish('live'));
    connection.once('error', (error) => {
      const code = codeOf(error);
      if (code === 'ECONNREFUSED') finish('stale');
      else if (code === 'ENOENT') finish('gone');
      else if (code === 'EAGAIN') finish('live');
      else {
        finish(
          new BasaltError('ERR_RPC_IPC_PATH', `The IPC socket ${socketPath} cannot be checked for a running node (${code}).`, {
            cause: error,
          }),
        );
      }
    });
  });
}

async function unlinkIgnoringMissing(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw error;
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
