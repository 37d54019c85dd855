/**
 * Production and validation share one path: the chain a real devnet node
 * produces, written out by `basalt blockchain:export`, replays with `basalt blockchain:replay`
 * into a fresh data dir to the same tip and stateRoot. The export format is checked byte for
 * byte against lisk-sdk's own dev chain, and its flags and refusals as a user meets them.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { openChain } from '../../src/node.js';
import { runBasalt } from '../support/cli.js';
import { startBasaltNode, stopProcess, waitForHeight } from '../support/node-process.js';
import { DEV_CHAIN_DIR, devBlockLines, devFinalState } from '../support/dev-chain.js';

interface ExportLine {
  height: number;
  id: string;
  blockHex: string;
}

function readExport(path: string): ExportLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ExportLine);
}

describe('basalt blockchain:export', () => {
  let workDir: string;
  /** The dev chain fixture replayed by the CLI. */
  let devData: string;

  const replayArgs = (blocksFile: string, dataPath: string, genesis: string, config: string) => [
    'blockchain:replay',
    blocksFile,
    '--genesis',
    genesis,
    '--config',
    config,
    '--data-path',
    dataPath,
  ];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-export-'));
    devData = join(workDir, 'dev');
    const replayed = await runBasalt(
      replayArgs(
        join(DEV_CHAIN_DIR, 'blocks.ndjson'),
        devData,
        join(DEV_CHAIN_DIR, 'genesis_block.blob'),
        join(DEV_CHAIN_DIR, 'config.json'),
      ),
    );
    expect(replayed.code).toBe(0);
  }, 120_000);

  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('writes the stored dev chain exactly as lisk-sdk wrote it, genesis block first', async () => {
    const output = join(workDir, 'dev.ndjson');
    const result = await runBasalt(['blockchain:export', '--data-path', devData, '--output', output]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const reference = devBlockLines();
    expect(JSON.parse(result.stdout)).toEqual({ from: 0, to: reference.length - 1, blocks: reference.length, output });
    const exported = readExport(output);
    expect(exported).toEqual(reference.map(({ height, id, blockHex }) => ({ height, id, blockHex })));
    expect(readdirSync(workDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a height range, and refuses ranges and stores that do not exist', async () => {
    const output = join(workDir, 'range', 'part.ndjson');
    const result = await runBasalt(['blockchain:export', '-d', devData, '-o', output, '--from', '1', '--to', '3']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ from: 1, to: 3, blocks: 3, output });
    expect(readExport(output)).toEqual(
      devBlockLines()
        .slice(1, 4)
        .map(({ height, id, blockHex }) => ({ height, id, blockHex })),
    );

    const tip = devFinalState().tip.height;
    const refused = join(workDir, 'refused.ndjson');
    const beyond = await runBasalt(['blockchain:export', '-d', devData, '-o', refused, '--to', String(tip + 1)]);
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toContain(`--to ${tip + 1} is above the stored tip ${tip}`);
    const reversed = await runBasalt(['blockchain:export', '-d', devData, '-o', refused, '--from', '5', '--to', '4']);
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain('--from 5 is above --to 4');
    const notNumber = await runBasalt(['blockchain:export', '-d', devData, '-o', refused, '--from', 'one']);
    expect(notNumber.code).toBe(1);
    expect(notNumber.stderr).toContain('--from must be a whole number');
    const empty = join(workDir, 'empty');
    const noStore = await runBasalt(['blockchain:export', '-d', empty, '-o', refused]);
    expect(noStore.code).toBe(2);
    expect(noStore.stderr).toContain(`No Basalt chain store in ${empty}`);
    expect(existsSync(refused)).toBe(false);
    expect(existsSync(empty)).toBe(false);
  });

  it('replays the chain a devnet node produced into a fresh data dir with the same roots', async () => {
    const dataPath = join(workDir, 'devnet');
    const node = startBasaltNode(['--data-path', dataPath]);
    const storedGenesis = join(dataPath, 'config', 'genesis_block.blob');
    const storedConfig = join(dataPath, 'config', 'config.json');
    try {
      const { rpc: port } = await node.ports();
      // A few blocks, with the devnet's bootstrap transactions in the first ones.
      await waitForHeight(port, 6, 90_000, { output: node.output });
      // Exported while the node keeps producing: a consistent prefix of its chain.
      const whileRunning = join(workDir, 'devnet-running.ndjson');
      const running = await runBasalt(['blockchain:export', '-d', dataPath, '-o', whileRunning]);
      expect(running.code).toBe(0);
      const runningLines = readExport(whileRunning);
      expect(runningLines.map((line) => line.height)).toEqual([...runningLines.keys()]);

      expect(await stopProcess(node.child)).toBe(0);

      const full = join(workDir, 'devnet.ndjson');
      expect((await runBasalt(['blockchain:export', '-d', dataPath, '-o', full])).code).toBe(0);
      const lines = readExport(full);
      expect(lines.slice(0, runningLines.length)).toEqual(runningLines);
      const transactions = lines
        .slice(1)
        .reduce((sum, line) => sum + Block.fromBytes(Buffer.from(line.blockHex, 'hex')).transactions.length, 0);
      expect(transactions).toBeGreaterThan(0);

      const chain = await openChain({
        dataPath,
        config: loadChainConfig(storedConfig),
        genesisBlock: Block.fromBytes(readFileSync(storedGenesis)),
      });
      let tip: { height: number; id: string; stateRoot: string };
      let runningTipRoot: string;
      try {
        const header = chain.processor.tipHeader();
        tip = { height: header.height, id: header.id.toString('hex'), stateRoot: header.stateRoot.toString('hex') };
        runningTipRoot = (chain.chainStore.getHeaderByHeight(runningLines.length - 1) as { stateRoot: Buffer }).stateRoot.toString('hex');
      } finally {
        await chain.close();
      }
      expect(lines.length).toBe(tip.height + 1);

      const replayed = await runBasalt(replayArgs(full, join(workDir, 'devnet-replayed'), storedGenesis, storedConfig));
      expect(replayed.code).toBe(0);
      expect(JSON.parse(replayed.stdout.trim())).toEqual(tip);

      const replayedPrefix = await runBasalt(replayArgs(whileRunning, join(workDir, 'devnet-prefix'), storedGenesis, storedConfig));
      expect(replayedPrefix.code).toBe(0);
      const last = runningLines[runningLines.length - 1] as ExportLine;
      expect(JSON.parse(replayedPrefix.stdout.trim())).toEqual({ height: last.height, id: last.id, stateRoot: runningTipRoot });
    } finally {
      await stopProcess(node.child, 'SIGKILL');
    }
  }, 240_000);
});
