/**
 * Event pruning is crash-safe: a replay with system.keepEventsForHeights = 5, SIGKILLed at
 * random moments, reopens with every block complete and with events stored for exactly the
 * heights above the pruning bound of its tip (the events go in the block's own LMDB
 * transaction), then finishes on the reference roots. Seeded as test/integration/crash-safety.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainEnvPath } from '../../src/chain/lmdb-environment.js';
import { eventsPrunableUpTo } from '../../src/engine/event-retention.js';
import { openChain } from '../../src/node.js';
import { runBasalt } from '../support/cli.js';
import { runBasaltAndKill } from '../support/crash.js';
import { DEV_CHAIN_DIR, devChainConfig, devFinalState, devGenesisBlock, devReplayArgs } from '../support/dev-chain.js';
import { mulberry32, testSeed } from '../support/seeded-random.js';

const KEEP = 5;
const RUNS = Number(process.env.BASALT_CRASH_RUNS ?? 2);
const SEED = testSeed('SIGKILL during event pruning');
const random = mulberry32(SEED);

describe('SIGKILL during event pruning', () => {
  let workDir: string;
  let args: string[];
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-crash-prune-'));
    const config = JSON.parse(readFileSync(join(DEV_CHAIN_DIR, 'config.json'), 'utf8')) as { system: Record<string, unknown> };
    config.system.keepEventsForHeights = KEEP;
    const configFile = join(workDir, 'config.json');
    writeFileSync(configFile, JSON.stringify(config));
    args = devReplayArgs(join(workDir, 'data'));
    args[args.indexOf('--config') + 1] = configFile;
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it(`reopens with events kept exactly above the bound after ${RUNS} kills (seed ${SEED})`, {
    timeout: 90_000 + RUNS * 25_000,
  }, async () => {
    const checkStore = async (): Promise<number> => {
      const chain = await openChain({ dataPath: join(workDir, 'data'), config: devChainConfig(), genesisBlock: devGenesisBlock() });
      try {
        const { chainStore } = chain;
        const tip = chainStore.tipHeight();
        const limit = eventsPrunableUpTo(KEEP, tip, chainStore.finalizedHeight());
        for (let height = 0; height <= tip; height += 1) {
          expect(chainStore.getBlockByHeight(height).header.height).toBe(height);
          expect(chainStore.getEvents(height) === undefined, `events of ${height} (tip ${tip}, bound ${limit})`).toBe(height <= limit);
        }
        expect(chain.stateDb.root().equals(chain.processor.tipHeader().stateRoot)).toBe(true);
        return tip;
      } finally {
        await chain.close();
      }
    };
    const dataPath = join(workDir, 'data');
    mkdirSync(dataPath, { recursive: true });
    const heightsAtKill: number[] = [];
    let emptied = 0;
    for (let run = 0; run < RUNS; run += 1) {
      // Pruning comes with every block once finality moves: the kill lands within 3 s of the
      // run's first commit (genesis, or the first block), whatever the start-up took.
      const { killed } = await runBasaltAndKill(args, Math.floor(random() * 3000), { afterFirstWriteTo: chainEnvPath(dataPath) });
      const height = await checkStore();
      heightsAtKill.push(killed ? height : -1);
      // A complete chain leaves the next runs nothing to do: they start again from an empty data directory.
      if (!killed || height === devFinalState().tip.height) {
        rmSync(dataPath, { recursive: true, force: true });
        mkdirSync(dataPath);
        emptied += 1;
      }
    }
    console.log(
      `SIGKILL during event pruning: ${RUNS} kills; store heights at kill ${heightsAtKill.join(', ')} (-1: the run ended first); ` +
        `chains completed and started again ${emptied}; inconsistencies 0`,
    );
    const finished = await runBasalt(args);
    expect(finished.code).toBe(0);
    const { tip } = devFinalState();
    expect(JSON.parse(finished.stdout.trim())).toEqual({ height: tip.height, id: tip.id, stateRoot: tip.stateRoot });
    await checkStore();
  });
});
