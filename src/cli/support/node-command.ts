/**
 * What every command that talks to a node shares: the connection its flags describe.
 */
import { resolveDataPath } from './data-path.js';
import type { ConnectOptions } from './node-client.js';

/** The connection of `--data-path` / `--url` (IPC unless a URL is given). */
export function nodeConnection(values: { 'data-path'?: string; url?: string }): ConnectOptions {
  return { dataPath: resolveDataPath(values['data-path']), url: values.url };
}
