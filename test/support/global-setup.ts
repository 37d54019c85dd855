import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TALLY_ENV } from './conformance-tally.js';
import { DEV_GENESIS_STORE_ENV, startDevGenesisStoreBuild } from './dev-genesis-store.js';

const dir = mkdtempSync(join(tmpdir(), 'basalt-test-run-'));
const tallyPath = join(dir, 'tally.ndjson');
const devGenesisStore = join(dir, 'dev-genesis');
let devGenesisBuilder: ChildProcess | undefined;

export function setup(): void {
  // Read and printed by the tally reporter (conformance-tally-reporter.ts) when the run ends.
  process.env[TALLY_ENV] = tallyPath;
  // Built while the first test files start; the files that need it wait for it (dev-genesis-store.ts).
  process.env[DEV_GENESIS_STORE_ENV] = devGenesisStore;
  devGenesisBuilder = startDevGenesisStoreBuild(devGenesisStore);
}

export async function teardown(): Promise<void> {
  const builder = devGenesisBuilder;
  if (builder !== undefined && builder.exitCode === null && builder.signalCode === null) {
    // A run that ends before the store is ready (one quick file): stop the builder before removing its directory.
    await new Promise((resolve) => {
      builder.once('exit', resolve);
      builder.kill();
    });
  }
  rmSync(dir, { recursive: true, force: true });
}
