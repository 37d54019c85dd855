/**
 * Crash safety while syncing: a follower (`basalt start`, a real process) syncing the real
 * lisk-sdk dev chain over P2P from a Basalt node that holds it is SIGKILLed at random moments.
 * After every kill its store reopens consistent (the state tree rebuilt from the stored values
 * matches the committed root, or opening refuses), every stored block is the reference block of
 * its height, and the next start picks up from there; in the end it holds the whole chain with the
 * reference tip and state root. BASALT_CRASH_RUNS sets the number of kills (CI: 2; the soak runs
 * 50); the kill moments come from a seeded PRNG whose seed is printed (BASALT_TEST_SEED replays).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChain } from '../../src/node.js';
import { runBasalt } from '../support/cli.js';
import { DEV_CHAIN_DIR, devBlockLines, devChainConfig, devFinalState, devGenesisBlock, devReplayArgs } from '../support/dev-chain.js';
import { rpc, startBasaltNode, stopProcess, waitForHeight, type NodeProcess } from '../support/node-process.js';
import { mulberry32, testSeed } from '../support/seeded-random.js';

const RUNS = Number(process.env.BASALT_CRASH_RUNS ?? 2);
const SEED = testSeed('SIGKILL during sync');
const random = mulberry32(SEED);
const SOURCE_HOST = '127.0.0.32';
const FOLLOWER_HOST = '127.0.0.33';

describe(`SIGKILL while syncing (seed ${SEED})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-crash-sync-'));
  const followerPath = join(dir, 'follower');
  const referenceIds = devBlockLines().map((line) => line.id);
  let source: NodeProcess;
  let sourceAddress: string;

  /** The dev chain's config with P2P on `host`, seeded with `seeds`, and no generator keys. */
  const configFor = (name: string, host: string, seeds: readonly string[]): string => {
    const config = JSON.parse(readFileSync(join(DEV_CHAIN_DIR, 'config.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    config.genesis!.block = { fromFile: join(DEV_CHAIN_DIR, 'genesis_block.blob') };
    config.network = {
      version: '1.0',
      host,
      port: 0,
      seedPeers: seeds.map((seed) => ({ ip: seed.split(':')[0], port: Number(seed.split(':')[1]) })),
    };
    const noKeys = join(dir, 'no-keys.json');
    writeFileSync(noKeys, JSON.stringify({ keys: [] }));
    config.generator = { keys: { fromFile: noKeys } };
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(config));
    return file;
  };

  const startFollower = (): NodeProcess =>
    startBasaltNode(['--data-path', followerPath, '--config', configFor('follower', FOLLOWER_HOST, [sourceAddress])]);

  /** Opens the follower's store in this process: it must open, and hold only reference blocks. */
  const checkStore = async (): Promise<number> => {
    const chain = await openChain({ dataPath: followerPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      const tip = chain.chainStore.tipHeight();
      for (let height = 0; height <= tip; height += 1) {
        expect(chain.chainStore.getHeaderByHeight(height)?.id.toString('hex')).toBe(referenceIds[height]);
      }
      expect(chain.stateDb.root().equals(chain.processor.tipHeader().stateRoot)).toBe(true);
      return tip;
    } finally {
      await chain.close();
    }
  };

  beforeAll(async () => {
    const sourcePath = join(dir, 'source');
    const replay = await runBasalt(devReplayArgs(sourcePath));
    expect(replay.code).toBe(0);
    source = startBasaltNode(['--data-path', sourcePath, '--config', configFor('source', SOURCE_HOST, [])]);
    sourceAddress = `${SOURCE_HOST}:${(await source.ports()).p2p}`;
  }, 180_000);

  afterAll(async () => {
    if (source) await stopProcess(source.child);
    rmSync(dir, { recursive: true, force: true });
  });

  it(`reopens consistent after ${RUNS} kills and completes the sync`, { timeout: 60_000 + RUNS * 60_000 }, async () => {
    const tips: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const follower = startFollower();
      await follower.ports();
      // Somewhere inside the sync of 420 blocks (a few seconds here), or just before it.
      await new Promise((resolve) => setTimeout(resolve, 200 + random() * 3_000));
      follower.child.kill('SIGKILL');
      await new Promise((resolve) => follower.child.once('exit', resolve));
      tips.push(await checkStore());
    }
    console.log(`SIGKILL during sync: ${RUNS} kills; tips after each kill ${tips.join(', ')}; inconsistencies 0`);
    const follower = startFollower();
    try {
      const { rpc: port } = await follower.ports();
      await waitForHeight(port, 420, 60_000, { output: () => follower.output() });
      const info = await rpc<{ lastBlockID: string }>(port, 'system_getNodeInfo');
      expect(info.lastBlockID).toBe(devFinalState().tip.id);
    } finally {
      await stopProcess(follower.child);
    }
    expect(await checkStore()).toBe(420);
  });
});
