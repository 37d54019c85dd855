/**
 * The migration oracle, when it sits beside the repository (MIGRATION_ORACLE_DIR): real Lisk
 * Core 3.0.3 data directories as tarballs, and what lisk-migrator 2.0.1 with Lisk Core 4.0.3
 * produced from them. Absent on a plain clone: tests that need it skip and say why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const MIGRATION_ORACLE_DIR = join(REPO, '..', 'shared', 'fixtures', 'migration', 'dev');
export const migrationOraclePresent = existsSync(join(MIGRATION_ORACLE_DIR, 'lisk-core-3.0.3-devnet-h309.tgz'));

export type V3Tarball = 'h59' | 'h309';

/** Extracts a v3 data dir tarball into a fresh temp dir; returns its blockchain.db and forger.db paths. */
export function extractV3DataDir(name: V3Tarball): { readonly root: string; readonly blockchainDb: string; readonly forgerDb: string } {
  const root = mkdtempSync(join(tmpdir(), `basalt-v3-${name}-`));
  execFileSync('tar', ['xzf', join(MIGRATION_ORACLE_DIR, `lisk-core-3.0.3-devnet-${name}.tgz`), '-C', root]);
  const data = join(root, 'data', 'data');
  return { root, blockchainDb: join(data, 'blockchain.db'), forgerDb: join(data, 'forger.db') };
}

export function oracleFile(relativePath: string): Buffer {
  return readFileSync(join(MIGRATION_ORACLE_DIR, relativePath));
}

/** Name, size, mtime and bytes of every file under `dir`: equal snapshots mean nothing changed. */
export function directorySnapshot(dir: string): Map<string, string> {
  const snapshot = new Map<string, string>();
  const walk = (path: string, name: string): void => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path).sort()) walk(join(path, entry), `${name}/${entry}`);
      return;
    }
    snapshot.set(name, `${stats.size} ${stats.mtimeMs} ${readFileSync(path).toString('base64')}`);
  };
  walk(dir, '.');
  return snapshot;
}
