/**
 * Crash safety of `system.backup.height`: a replay of the dev chain with backup.height = 200 is
 * SIGKILLed around the moment block 200 is stored, half of the time as soon as the copy's
 * temporary file appears (inside the copy, or just after it), and half of the time at a random
 * moment from 60% to 140% of the time the last run took to start the copy.
 * After every kill the store reopens consistent; the backup is either absent or a complete copy
 * that opens as a data directory at exactly height 200 (a half-written copy never carries the
 * name a data directory opens); and the next run, to the end of the chain, leaves the backup at
 * height 200. BASALT_CRASH_RUNS sets the number of kills (CI: 2; the soak runs 50). The moments
 * come from a seeded PRNG whose seed is printed (BASALT_TEST_SEED replays it).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { backupDataPath, PARTIAL_SUFFIX } from '../../src/chain/chain-backup.js';
import { chainEnvPath } from '../../src/chain/lmdb-environment.js';
import { openChain } from '../../src/node.js';
import { BASALT_ROOT, basaltProcessArgs, runBasalt } from '../support/cli.js';
import { DEV_CHAIN_DIR, devBlockLines, devChainConfig, devGenesisBlock, devReplayArgs } from '../support/dev-chain.js';
import { seedDevGenesis } from '../support/dev-genesis-store.js';
import { mulberry32, testSeed } from '../support/seeded-random.js';

const BACKUP_HEIGHT = 200;
const RUNS = Number(process.env.BASALT_CRASH_RUNS ?? 2);
const SEED = testSeed('SIGKILL during backup');
const random = mulberry32(SEED);

/** What a kill left: the store's tip, and the backup's state. */
interface KillOutcome {
  readonly tip: number;
  readonly backup: 'absent' | 'complete';
  readonly partialLeft: boolean;
}

describe('SIGKILL during backup (system.backup.height)', () => {
  let workDir: string;
  let basePath: string;
  let configFile: string;
  const lines = devBlockLines();
  const reference = Block.fromBytes(Buffer.from((lines[BACKUP_HEIGHT] as { blockHex: string }).blockHex, 'hex')).header;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-crash-backup-'));
    const config = JSON.parse(readFileSync(join(DEV_CHAIN_DIR, 'config.json'), 'utf8')) as { system: Record<string, unknown> };
    config.system.backup = { height: BACKUP_HEIGHT };
    configFile = join(workDir, 'config.json');
    writeFileSync(configFile, JSON.stringify(config));
    // Every run starts from a store one block below the backup height (built once, copied).
    basePath = join(workDir, 'base');
    const below = join(workDir, 'below.ndjson');
    writeFileSync(
      below,
      `${lines
        .slice(0, BACKUP_HEIGHT)
        .map((line) => JSON.stringify(line))
        .join('\n')}\n`,
    );
    await seedDevGenesis(basePath);
    const built = await runBasalt(devReplayArgs(basePath, below));
    expect(built.code, built.stderr).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  const replayArgs = (dataPath: string): string[] => {
    const args = devReplayArgs(dataPath);
    args[args.indexOf('--config') + 1] = configFile;
    return args;
  };

  /** The store reopens with the state at its tip; returns the tip height. */
  const checkStore = async (dataPath: string, when: string): Promise<number> => {
    const chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      const tip = chain.processor.tipHeader();
      expect(tip.id.toString('hex'), `${when}: tip ${tip.height}`).toBe(lines[tip.height]?.id);
      expect(chain.stateDb.root().equals(tip.stateRoot), `${when}: state root`).toBe(true);
      return tip.height;
    } finally {
      await chain.close();
    }
  };

  /** The backup is absent, or opens as a data directory at exactly the backup height. */
  const checkBackup = async (dataPath: string, when: string): Promise<'absent' | 'complete'> => {
    const backupPath = backupDataPath(dataPath);
    if (!existsSync(chainEnvPath(backupPath))) return 'absent';
    const chain = await openChain({ dataPath: backupPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      const tip = chain.processor.tipHeader();
      expect(tip.height, `${when}: backup height`).toBe(BACKUP_HEIGHT);
      expect(tip.id.equals(reference.id), `${when}: backup tip`).toBe(true);
      expect(chain.stateDb.root().equals(reference.stateRoot), `${when}: backup state root`).toBe(true);
    } finally {
      await chain.close();
    }
    return 'complete';
  };

  /**
   * Runs the replay and SIGKILLs it: after `delayMs`, or (with `onPartial`) that long after the
   * copy's temporary file appears. Resolves, once the process is gone, with the milliseconds from
   * the start to the copy's file (undefined when it did not appear).
   */
  const replayAndKill = (dataPath: string, delayMs: number, onPartial: boolean): Promise<number | undefined> =>
    new Promise((resolve, reject) => {
      const backupPath = backupDataPath(dataPath);
      mkdirSync(backupPath, { recursive: true });
      const started = Date.now();
      let copyStartedAfter: number | undefined;
      const child = spawn(process.execPath, basaltProcessArgs(replayArgs(dataPath)), { cwd: BASALT_ROOT, stdio: 'ignore' });
      const watcher = watch(backupPath, (_event, name) => {
        if (name !== `basalt.lmdb${PARTIAL_SUFFIX}` || copyStartedAfter !== undefined) return;
        copyStartedAfter = Date.now() - started;
        if (onPartial) setTimeout(() => child.kill('SIGKILL'), delayMs);
      });
      // Without a copy to wait for (the run ended first), the kill still comes, late.
      const fallback = setTimeout(() => child.kill('SIGKILL'), onPartial ? 30_000 : delayMs);
      child.on('error', reject);
      child.on('close', () => {
        clearTimeout(fallback);
        watcher.close();
        resolve(copyStartedAfter);
      });
    });

  it(
    `keeps the backup absent or complete across ${RUNS} kills, and the next run writes it (seed ${SEED})`,
    async () => {
      const outcomes: KillOutcome[] = [];
      // When the copy starts, after the process starts (start-up, then block 200): 1-3 s on a quiet machine.
      let copyStartsAfter = 2500;
      for (let run = 0; run < RUNS; run += 1) {
        const dataPath = join(workDir, `run-${run}`);
        cpSync(basePath, dataPath, { recursive: true });
        const onPartial = run % 2 === 0;
        // On the copy's file, 0-4 ms after it; else anywhere from well before to well after it.
        const delay = onPartial ? Math.floor(random() * 5) : Math.floor(copyStartsAfter * (0.6 + random() * 0.8));
        copyStartsAfter = (await replayAndKill(dataPath, delay, onPartial)) ?? copyStartsAfter;
        const tip = await checkStore(dataPath, `after kill ${run}`);
        const backup = await checkBackup(dataPath, `after kill ${run}`);
        const partialLeft = existsSync(`${chainEnvPath(backupDataPath(dataPath))}${PARTIAL_SUFFIX}`);
        outcomes.push({ tip, backup, partialLeft });
        // A complete backup means block 200 was stored first; block 201 waits for the copy.
        if (backup === 'complete') expect(tip).toBeGreaterThanOrEqual(BACKUP_HEIGHT);
        if (tip > BACKUP_HEIGHT) expect(backup, `kill ${run}: tip ${tip} past the backup height without a backup`).toBe('complete');

        const finished = await runBasalt(replayArgs(dataPath));
        expect(finished.code, finished.stderr).toBe(0);
        expect(await checkStore(dataPath, `after the run after kill ${run}`)).toBe(lines.length - 1);
        expect(await checkBackup(dataPath, `after the run after kill ${run}`)).toBe('complete');
        rmSync(dataPath, { recursive: true, force: true });
      }
      const count = (test: (outcome: KillOutcome) => boolean): number => outcomes.filter(test).length;
      console.log(
        `SIGKILL during backup: ${RUNS} kills; tips at kill ${outcomes.map((outcome) => outcome.tip).join(', ')}; ` +
          `before height ${BACKUP_HEIGHT} was stored ${count((o) => o.tip < BACKUP_HEIGHT)}, ` +
          `at ${BACKUP_HEIGHT} without a backup (copy interrupted, rewritten by the next run) ${count((o) => o.tip === BACKUP_HEIGHT && o.backup === 'absent')}, ` +
          `with a complete backup ${count((o) => o.backup === 'complete')}; unfinished copies left under the temporary name ${count((o) => o.partialLeft)}; ` +
          'inconsistent stores 0, half-written backups taken for complete 0',
      );
      expect(outcomes).toHaveLength(RUNS);
    },
    120_000 + RUNS * 30_000,
  );
});
