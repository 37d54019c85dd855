/**
 * The state tree snapshot through the node's own open and close (openChain): a clean shutdown
 * saves the tree, the next open adopts it and says so, blocks replayed on top invalidate it, and a
 * damaged file is noticed, logged as a warning and replaced by a rebuild from the values. Every
 * open must land on the tip's stateRoot, and the replay on the reference chain's final roots.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChain } from '../../src/node.js';
import { stateTreeSnapshotPath } from '../../src/state/state-tree-snapshot.js';
import { runBasalt } from '../support/cli.js';
import { type LogLine, recordingLogger } from '../support/recording-logger.js';
import { DEV_CHAIN_DIR, devChainConfig, devFinalState, devGenesisBlock, devReplayArgs } from '../support/dev-chain.js';

describe('state tree snapshot across node restarts', () => {
  let workDir: string;
  let dataPath: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-tree-restart-'));
    dataPath = join(workDir, 'data');
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  /** Opens and closes the chain as a running node does; returns what it logged about the tree. */
  async function restart(): Promise<{ level: string; message: string }[]> {
    const lines: LogLine[] = [];
    const chain = await openChain({
      dataPath,
      config: devChainConfig(),
      genesisBlock: devGenesisBlock(),
      logger: recordingLogger(lines),
      saveStateTreeOnClose: true,
    });
    try {
      expect(chain.stateDb.root()).toEqual(chain.processor.tipHeader().stateRoot);
    } finally {
      await chain.close();
    }
    return lines.map(({ level, message }) => ({ level, message: message ?? '' })).filter((line) => line.message.startsWith('State tree'));
  }

  it('is adopted after a clean shutdown, invalidated by new blocks, and refused when damaged', async () => {
    const blocks = readFileSync(join(DEV_CHAIN_DIR, 'blocks.ndjson'), 'utf8').trimEnd().split('\n');
    const firstHalf = join(workDir, 'first-half.ndjson');
    writeFileSync(firstHalf, `${blocks.slice(0, blocks.length >> 1).join('\n')}\n`);
    expect((await runBasalt(devReplayArgs(dataPath, firstHalf))).code).toBe(0);

    const first = await restart();
    expect(first[0]?.message).toMatch(/^State tree rebuilt from \d+ values \(no valid snapshot: none was written at the last shutdown\)$/);
    expect(first[1]?.message).toBe('State tree snapshot written');
    expect(await restart()).toEqual([
      { level: 'info', message: 'State tree loaded from the snapshot of the last clean shutdown' },
      { level: 'info', message: 'State tree snapshot written' },
    ]);

    // The replay adopts the snapshot and writes blocks on top: its first commit invalidates it.
    const finished = await runBasalt(devReplayArgs(dataPath));
    expect(finished.code).toBe(0);
    const final = devFinalState();
    expect(JSON.parse(finished.stdout.trim())).toEqual({ height: final.tip.height, id: final.tip.id, stateRoot: final.tip.stateRoot });
    const afterBlocks = await restart();
    expect(afterBlocks[0]).toMatchObject({ level: 'info', message: expect.stringContaining('(no valid snapshot: none was written') });

    const path = stateTreeSnapshotPath(dataPath);
    const bytes = readFileSync(path);
    bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] as number) ^ 0x40;
    writeFileSync(path, bytes);
    const damaged = await restart();
    expect(damaged[0]).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('(no valid snapshot: damaged snapshot: checksum mismatch)'),
    });
    expect((await restart())[0]?.message).toBe('State tree loaded from the snapshot of the last clean shutdown');
  }, 180_000);
});
