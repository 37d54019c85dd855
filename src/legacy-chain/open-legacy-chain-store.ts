import { mkdirSync } from 'node:fs';
import { open } from 'lmdb';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../chain/lmdb-environment.js';
import { LegacyChainStore } from './legacy-chain-store.js';

/**
 * The legacy chain store of the node data directory `dataPath`, opened on its own (the
 * environment the node opens, with the same options), for tools that fill it while no node runs
 * there, such as the migration's import. `close` closes the environment.
 */
export function openLegacyChainStore(dataPath: string): { readonly store: LegacyChainStore; close(): Promise<void> } {
  mkdirSync(dataPath, { recursive: true });
  const env = open({ path: chainEnvPath(dataPath), ...CHAIN_ENV_OPTIONS });
  return { store: new LegacyChainStore(env), close: () => env.close() };
}
