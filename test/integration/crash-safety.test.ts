/**
 * Crash safety: a replay SIGKILLed at a random moment leaves a store that reopens
 * consistent (every stored block complete, the state at the tip's stateRoot), and the next run
 * continues to the same final roots. BASALT_CRASH_RUNS sets the number of kills (the soak script
 * runs 50; CI runs a few). The kill moments come from a seeded PRNG: the seed is printed and
 * in the test's title; BASALT_TEST_SEED replays it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChain } from '../../src/node.js';
import { runBasalt } from '../support/cli.js';
import { runBasaltAndKill } from '../support/crash.js';
import { devReplayArgs, devChainConfig, devFinalState, devGenesisBlock } from '../support/dev-chain.js';
import { mulberry32, testSeed } from '../support/seeded-random.js';

const RUNS = Number(process.env.BASALT_CRASH_RUNS ?? 3);
const SEED = testSeed('SIGKILL during replay');
const random = mulberry32(SEED);

describe('SIGKILL during replay', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-crash-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it(`reopens consistent after ${RUNS} random kills and ends on the reference roots (seed ${SEED})`, {
    timeout: 60_000 + RUNS * 20_000,
  }, async () => {
    const dataPath = join(workDir, 'data');
    const heightsAtKill: number[] = [];
    let complete = false;
    let emptied = 0;
    for (let run = 0; run < RUNS; run += 1) {
      // Process start-up takes ~1 s and genesis ~3 s; spread the kills over start-up, genesis and blocks.
      const { killed } = await runBasaltAndKill(devReplayArgs(dataPath), 1000 + Math.floor(random() * 6000));
      const chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() }).catch((error: Error) => {
        throw new Error(`store did not reopen after kill ${run}: ${error.message}`);
      });
      try {
        const tipHeight = chain.chainStore.tipHeight();
        heightsAtKill.push(killed ? tipHeight : -1);
        // A complete chain leaves the next runs nothing to do: they start again from an empty data directory.
        complete = !killed || tipHeight === devFinalState().tip.height;
        // No partial block: every stored height has its header, transactions, assets and events.
        for (let height = 0; height <= tipHeight; height += 1) {
          const block = chain.chainStore.getBlockByHeight(height);
          expect(block.header.height).toBe(height);
          expect(chain.chainStore.getEvents(height)).toBeDefined();
        }
        expect(chain.stateDb.root().equals(chain.processor.tipHeader().stateRoot)).toBe(true);
      } finally {
        await chain.close();
      }
      if (complete) {
        rmSync(dataPath, { recursive: true, force: true });
        emptied += 1;
      }
    }
    const finished = await runBasalt(devReplayArgs(dataPath));
    expect(finished.code).toBe(0);
    const final = devFinalState();
    expect(JSON.parse(finished.stdout.trim())).toEqual({
      height: final.tip.height,
      id: final.tip.id,
      stateRoot: final.tip.stateRoot,
    });
    console.log(
      `SIGKILL during replay: ${RUNS} kills; store heights at kill ${heightsAtKill.join(', ')} (-1: the run ended first); ` +
        `chains completed and started again ${emptied}; inconsistencies 0; the last run ended on the reference tip ${final.tip.height}`,
    );
    expect(heightsAtKill).toHaveLength(RUNS);
  });
});
