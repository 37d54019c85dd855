import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TALLY_ENV } from './conformance-tally.js';
import { DEV_GENESIS_STORE_ENV, startDevGenesisStoreBuild } from './dev-genesis-store.js';

const dir = mkdtempSync(join(tmpdir(), 'basalt-test-run-'));
const tallyPath = join(dir, 'tally.ndjson');
const devGenesisStore = join(dir, 'dev-genesis');
let devGenesisBuilder: ChildProcess | undefined;

export function setup(): void {
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
  if (existsSync(tallyPath)) {
    const totals = new Map<string, number>();
    for (const line of readFileSync(tallyPath, 'utf8').split('\n')) {
      if (!line) continue;
      const { fixtureFile, cases } = JSON.parse(line) as { fixtureFile: string; cases: number };
      // Several test files may exercise the same fixture file: report the largest count, not the sum.
      totals.set(fixtureFile, Math.max(totals.get(fixtureFile) ?? 0, cases));
    }
    const rows = [...totals.entries()].sort(([a], [b]) => a.localeCompare(b));
    const width = Math.max(...rows.map(([name]) => name.length), 10);
    const lines = rows.map(([name, n]) => `  ${name.padEnd(width)}  ${String(n).padStart(6)}`);
    const total = rows.reduce((sum, [, n]) => sum + n, 0);
    process.stdout.write(`\nConformance cases run per fixture file (${rows.length} files, ${total} cases):\n${lines.join('\n')}\n`);
  }
  rmSync(dir, { recursive: true, force: true });
}
