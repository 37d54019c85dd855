/**
 * The dev chain's genesis block (test/fixtures/chains/dev), executed once per test run.
 * Executing it verifies 103 proofs of possession and builds every module's genesis state and the
 * state tree: seconds of work, while many test files only need a store that already holds it.
 * The global setup (global-setup.ts) starts one child process that executes it into a temporary
 * data directory; `seedDevGenesis` copies that store into a test's own data directory, so that
 * `openChain` finds the genesis stored (and checks its ID) instead of executing it again.
 *
 * Tests whose subject is the genesis execution itself keep opening an empty data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chainEnvPath } from '../../src/chain/lmdb-environment.js';

/** Where the global setup builds the store (a data directory path, absent until it is ready). */
export const DEV_GENESIS_STORE_ENV = 'BASALT_TEST_DEV_GENESIS_STORE';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILDER = join(ROOT, 'test/support/build-dev-genesis-store.ts');
const WAIT_LIMIT_MS = 180_000;

/** The file the builder writes instead of the store when it fails, with the error. */
export function failureFile(storePath: string): string {
  return `${storePath}.failed`;
}

/**
 * Starts building the store at `storePath` in a child process (the builder renames its finished
 * directory to `storePath`, so the path exists only once the store is complete).
 */
export function startDevGenesisStoreBuild(storePath: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', BUILDER, storePath], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function waitForStore(storePath: string): Promise<void> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!existsSync(storePath)) {
    if (existsSync(failureFile(storePath))) {
      throw new Error(`Building the dev genesis store failed:\n${readFileSync(failureFile(storePath), 'utf8')}`);
    }
    if (Date.now() > deadline) throw new Error(`The dev genesis store did not appear at ${storePath} within ${WAIT_LIMIT_MS} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Puts the executed dev genesis into `dataPath` (a copy of the run's store); call it before
 * opening the dev chain there. `dataPath` must not hold a chain yet. Outside a vitest run (no
 * global setup) it does nothing, and `openChain` executes the genesis itself, with the same result.
 */
export async function seedDevGenesis(dataPath: string): Promise<void> {
  const storePath = process.env[DEV_GENESIS_STORE_ENV];
  if (storePath === undefined) return;
  if (existsSync(chainEnvPath(dataPath))) throw new Error(`${dataPath} already holds a chain store.`);
  await waitForStore(storePath);
  mkdirSync(dataPath, { recursive: true });
  copyFileSync(chainEnvPath(storePath), chainEnvPath(dataPath));
}
