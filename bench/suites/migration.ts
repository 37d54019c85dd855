/**
 * `basalt migrate` (the real CLI, spawned) offline on a synthetic Lisk Core 3 database written in
 * the real on-disk format (test/support/v3-database-writer.ts), and beside it, on the same
 * database in the same run, the real lisk-migrator 2.0.1 with Lisk Core 4.0.3 when their builds
 * are given (lib/lisk-migrator.ts). Both must write the same genesis_block.blob, byte for byte.
 *
 * Wall time from spawn to exit, blocks/s over that time, and the peak RSS of the largest process
 * (lib/measured-run.ts). Basalt's JSON progress lines, timed as they arrive, split its run into the
 * part linear in blocks and transactions (the generator-key scan) and the part linear in accounts
 * (the assets and the genesis block's execution), which is how the run is extrapolated to
 * mainnet's block count.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Block } from '../../src/chain/block.js';
import { writeSyntheticV3Database } from '../../test/support/v3-database-writer.js';
import type { Measurement } from '../lib/figure.js';
import { findLiskMigrator, type LiskMigratorTool } from '../lib/lisk-migrator.js';
import { measuredRun, type MeasuredRun } from '../lib/measured-run.js';
import type { Suite } from '../lib/suite.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BASALT_BIN = join(ROOT, 'bin', 'basalt.js');

interface Scale {
  readonly blocks: number;
  readonly accounts: number;
  readonly transactions: number;
}

/** About mainnet's size where it matters for time and memory: the accounts and a long chain. */
const FULL: Scale = { blocks: 1_000_000, accounts: 200_000, transactions: 1_000_000 };
/** A tenth of it, for a ratio at a size lisk-migrator always finishes; full runs only. */
const TENTH: Scale = { blocks: 100_000, accounts: 20_000, transactions: 100_000 };
/** --quick: a twentieth. */
const QUICK: Scale = { blocks: 50_000, accounts: 10_000, transactions: 50_000 };

/** Blocks of the chain the extrapolation is made for. */
const MAINNET_BLOCKS = 21_000_000;
const BASALT_TIMEOUT_MS = 10 * 60_000;
/** lisk-migrator asks for 8 GB and may take very long at full scale: it is stopped after this. */
const MIGRATOR_TIMEOUT_S = Number(process.env.BENCH_MIGRATOR_TIMEOUT_S ?? 1200);

function count(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n);
}

function label(scale: Scale): string {
  return `${count(scale.blocks)} blocks, ${count(scale.accounts)} accounts, ${count(scale.transactions)} tx`;
}

/** When Basalt's progress lines (JSON on a pipe) arrived, in ms since its spawn. */
interface PhaseTimes {
  scanStart?: number;
  /** The last `scan` line: headers and transactions read by then. */
  lastScan?: { readonly at: number; readonly done: number };
  /** The first `assets` line and the accounts done by then (10,000, or all of them). */
  firstAssets?: { readonly at: number; readonly done: number };
  accounts?: number;
  genesisStart?: number;
  genesisEnd?: number;
}

function phaseRecorder(times: PhaseTimes): (line: string, at: number) => void {
  return (line, at) => {
    if (!line.startsWith('{')) return;
    let progress: { phase?: string; done?: number };
    try {
      progress = JSON.parse(line) as { phase?: string; done?: number };
    } catch {
      return;
    }
    const done = progress.done ?? 0;
    if (progress.phase === 'scan') {
      times.scanStart ??= at;
      if (done > 0) times.lastScan = { at, done };
    }
    if (progress.phase === 'assets') {
      times.firstAssets ??= { at, done };
      times.accounts = done;
    }
    if (progress.phase === 'genesis' && done === 0) times.genesisStart = at;
    if (progress.phase === 'genesis' && done === 1) times.genesisEnd = at;
  };
}

/**
 * The scan (every block header and transaction) and the accounts part (assets + genesis
 * execution), in ms. The lines are at most one a second, so the end of the scan is estimated: the
 * first `assets` line comes only after 10,000 accounts, whose share is taken off at the rate of the
 * remaining accounts; when there are no more accounts than that, the scan's own rate up to its
 * last line is carried to all `entries` instead.
 */
function splitPhases(times: PhaseTimes, entries: number): { scanMs: number; accountsMs: number } {
  const { scanStart, lastScan, firstAssets, accounts, genesisStart, genesisEnd } = times;
  if (
    scanStart === undefined ||
    firstAssets === undefined ||
    accounts === undefined ||
    genesisStart === undefined ||
    genesisEnd === undefined
  )
    throw new Error('basalt migrate printed no complete set of progress lines (scan, assets, genesis).');
  let scanEnd = firstAssets.at;
  if (accounts > firstAssets.done) {
    const perAccount = (genesisStart - firstAssets.at) / (accounts - firstAssets.done);
    scanEnd -= firstAssets.done * perAccount;
  } else if (lastScan !== undefined) {
    scanEnd = scanStart + ((lastScan.at - scanStart) * entries) / lastScan.done;
  }
  scanEnd = Math.min(firstAssets.at, Math.max(lastScan?.at ?? scanStart, scanEnd));
  return { scanMs: scanEnd - scanStart, accountsMs: genesisEnd - scanEnd };
}

function blobDigest(outputDir: string): string {
  return createHash('sha256')
    .update(readFileSync(join(outputDir, 'genesis_block.blob')))
    .digest('hex');
}

function offlineArgs(dbPath: string, tipHeight: number, outputDir: string): string[] {
  return ['--snapshot-path', dbPath, '--network', 'mainnet', '--snapshot-height', String(tipHeight), '--output', outputDir];
}

/** The two programs disagree: their outputs are kept for a look. */
class DifferentGenesisError extends Error {}

function failure(what: string, run: MeasuredRun): Error {
  return new Error(`${what} exited with ${run.exitCode}:\n${run.outputTail}`);
}

function describe(run: MeasuredRun): string {
  const rss = run.peakRssMiB === null ? 'peak RSS unknown' : `peak RSS ${run.peakRssMiB.toFixed(0)} MiB (${run.rssSource})`;
  return `${(run.wallMs / 1000).toFixed(1)} s, ${run.cpuSeconds === null ? '' : `CPU ${run.cpuSeconds.toFixed(1)} s, `}${rss}`;
}

/** Peak RSS and CPU time of a run, when known; the CPU row compared with `cpuBaseline`'s. */
function resourceRows(row: string, run: MeasuredRun, cpuBaseline?: string): Measurement[] {
  const rows: Measurement[] = [];
  if (run.peakRssMiB !== null) rows.push({ name: `${row}, peak RSS`, value: run.peakRssMiB, unit: 'MiB' });
  if (run.cpuSeconds !== null) {
    const baseline = cpuBaseline === undefined ? {} : { baseline: `${cpuBaseline}, CPU time (user + sys)` };
    rows.push({ name: `${row}, CPU time (user + sys)`, value: run.cpuSeconds, unit: 's', ...baseline });
  }
  return rows;
}

async function runScale(
  scale: Scale,
  work: string,
  migrator: LiskMigratorTool | undefined,
  progress: (line: string) => void,
): Promise<Measurement[]> {
  const name = label(scale);
  const dbPath = join(work, `v3-${scale.blocks}`, 'blockchain.db');
  mkdirSync(dbPath, { recursive: true });
  const writeStart = performance.now();
  const { tipHeight } = await writeSyntheticV3Database(dbPath, scale);
  progress(`migration ${name}: synthetic v3 database written in ${((performance.now() - writeStart) / 1000).toFixed(1)} s (not a row)`);

  const basaltOut = join(work, `basalt-${scale.blocks}`);
  const times: PhaseTimes = {};
  progress(`migration ${name}: basalt migrate`);
  const basalt = await measuredRun(process.execPath, [BASALT_BIN, 'migrate', ...offlineArgs(dbPath, tipHeight, basaltOut)], {
    cwd: work,
    timeoutMs: BASALT_TIMEOUT_MS,
    onStderrLine: phaseRecorder(times),
  });
  if (basalt.timedOut) throw new Error(`basalt migrate took more than ${BASALT_TIMEOUT_MS / 1000} s.`);
  if (basalt.exitCode !== 0) throw failure('basalt migrate', basalt);
  // A fast wrong answer must fail: the block has to follow the snapshot block.
  const block = Block.fromBytes(readFileSync(join(basaltOut, 'genesis_block.blob')));
  if (block.header.height !== tipHeight + 1)
    throw new Error(`basalt migrate wrote a genesis block at height ${block.header.height}, not ${tipHeight + 1}.`);
  const basaltDigest = blobDigest(basaltOut);
  const { scanMs, accountsMs } = splitPhases(times, scale.blocks + scale.transactions);
  const restMs = basalt.wallMs - scanMs - accountsMs;
  const extrapolatedMs = basalt.wallMs + scanMs * (MAINNET_BLOCKS / scale.blocks - 1);
  progress(
    `migration ${name}: basalt ${describe(basalt)}; scan ${(scanMs / 1000).toFixed(1)} s, accounts ${(accountsMs / 1000).toFixed(1)} s, start-up and output files ${(restMs / 1000).toFixed(1)} s; blob ${basaltDigest}`,
  );

  const basaltRow = `basalt migrate ${name}`;
  const reference: Measurement[] = [];
  let baseline: string | undefined;
  let cpuBaseline: string | undefined;
  if (migrator !== undefined) {
    const migratorOut = join(work, `lisk-migrator-${scale.blocks}`);
    progress(`migration ${name}: lisk-migrator 2.0.1 (time limit ${MIGRATOR_TIMEOUT_S} s)`);
    const run = await measuredRun(process.execPath, [migrator.bin, ...offlineArgs(dbPath, tipHeight, migratorOut)], {
      cwd: work,
      env: migrator.env,
      timeoutMs: MIGRATOR_TIMEOUT_S * 1000,
    });
    const row = `lisk-migrator 2.0.1 (with stand-ins) migrate ${name}`;
    if (run.timedOut) {
      // Still a measurement: it needs more than this, so Basalt's ratio is a lower bound.
      baseline = `${row} (stopped at the ${MIGRATOR_TIMEOUT_S} s limit: an upper bound)`;
      reference.push(
        { name: baseline, value: scale.blocks / MIGRATOR_TIMEOUT_S, unit: 'blocks/s' },
        { name: `${row}, wall time (stopped at the limit: a lower bound)`, value: run.wallMs / 1000, unit: 's' },
        ...resourceRows(`${row} (stopped at the limit)`, run),
      );
      progress(`migration ${name}: lisk-migrator stopped at the limit: ${describe(run)}`);
    } else if (run.exitCode !== 0) {
      progress(`migration ${name}: lisk-migrator failed (exit ${run.exitCode}), no baseline at this size:\n${run.outputTail}`);
    } else {
      const referenceDigest = blobDigest(migratorOut);
      progress(`migration ${name}: lisk-migrator ${describe(run)}; blob ${referenceDigest}`);
      if (referenceDigest !== basaltDigest) {
        const sameAssets = readFileSync(join(migratorOut, 'genesis_assets.json')).equals(
          readFileSync(join(basaltOut, 'genesis_assets.json')),
        );
        throw new DifferentGenesisError(
          `basalt migrate and lisk-migrator wrote different genesis blocks (${basaltDigest} and ${referenceDigest}); genesis_assets.json ${sameAssets ? 'is the same' : 'differs too'}. Outputs kept in ${work}.`,
        );
      }
      progress(`migration ${name}: same genesis_block.blob SHA-256 from both`);
      reference.push(
        { name: row, value: (scale.blocks / run.wallMs) * 1000, unit: 'blocks/s' },
        { name: `${row}, wall time`, value: run.wallMs / 1000, unit: 's' },
        ...resourceRows(row, run),
      );
      baseline = row;
      if (run.cpuSeconds !== null) cpuBaseline = row;
    }
  }
  return [
    { name: basaltRow, value: (scale.blocks / basalt.wallMs) * 1000, unit: 'blocks/s', ...(baseline === undefined ? {} : { baseline }) },
    { name: `${basaltRow}, wall time`, value: basalt.wallMs / 1000, unit: 's' },
    ...resourceRows(basaltRow, basalt, cpuBaseline),
    { name: `${basaltRow}, scan of blocks + tx`, value: scanMs / 1000, unit: 's' },
    { name: `${basaltRow}, accounts: assets + genesis execution`, value: accountsMs / 1000, unit: 's' },
    { name: `${basaltRow}, extrapolated to ${count(MAINNET_BLOCKS)} blocks`, value: extrapolatedMs / 1000, unit: 's' },
    ...reference,
  ];
}

export const migrationSuite: Suite = {
  name: 'migration',
  summary: 'basalt migrate on a synthetic Lisk Core 3 database (1M blocks), beside lisk-migrator 2.0.1',
  async run(progress, { quick }) {
    const found = findLiskMigrator();
    const migrator = 'missing' in found ? undefined : found;
    if ('missing' in found) progress(`migration: lisk-migrator rows ${found.missing}`);
    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-migration-'));
    let kept = false;
    try {
      const results: Measurement[] = [];
      const scales = quick ? [QUICK] : migrator === undefined ? [FULL] : [FULL, TENTH];
      for (const scale of scales) results.push(...(await runScale(scale, work, migrator, progress)));
      return results;
    } catch (error) {
      kept = error instanceof DifferentGenesisError;
      throw error;
    } finally {
      if (!kept) rmSync(work, { recursive: true, force: true });
    }
  },
};
