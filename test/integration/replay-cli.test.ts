/**
 * `basalt blockchain:replay` as a process: exit codes, the final JSON line, stopping at a bad
 * block with the store left at the last good block, and continuing from the stored tip.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { Transaction } from '../../src/chain/transaction.js';
import { openChain } from '../../src/node.js';
import { runBasalt } from '../support/cli.js';
import { devReplayArgs, devBlockLines, devChainConfig, devGenesisBlock, type DevBlockLine } from '../support/dev-chain.js';

describe('basalt blockchain:replay', () => {
  let workDir: string;
  const lines = devBlockLines().slice(0, 6);

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-replay-cli-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  const writeBlocks = (name: string, blockLines: readonly DevBlockLine[]): string => {
    const path = join(workDir, name);
    writeFileSync(path, blockLines.map((line) => JSON.stringify({ height: line.height, blockHex: line.blockHex })).join('\n'));
    return path;
  };
  const replay = (blocksFile: string, dataPath: string) => runBasalt(devReplayArgs(dataPath, blocksFile));

  it('rejects a block with one altered transaction byte at its height with exit 3 and keeps the store at the block before', async () => {
    const original = Block.fromBytes(Buffer.from((lines[2] as DevBlockLine).blockHex, 'hex'));
    const [first, ...rest] = original.transactions;
    const alteredBytes = Buffer.from((first as Transaction).bytes);
    alteredBytes[alteredBytes.length - 1] = (alteredBytes[alteredBytes.length - 1] as number) ^ 0x01; // last signature byte
    const altered = new Block(original.header, [Transaction.fromBytes(alteredBytes), ...rest], original.assets);
    const badLines = lines.map((line) => (line.height === 2 ? { ...line, blockHex: altered.bytes.toString('hex') } : line));
    const dataPath = join(workDir, 'altered');

    const result = await replay(writeBlocks('altered.ndjson', badLines), dataPath);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Mismatch at height 2: transaction-root');
    expect(result.stdout).toBe('');

    const chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      const tip = chain.processor.tipHeader();
      expect(tip.height).toBe(1);
      expect(tip.id.toString('hex')).toBe(lines[1]?.id);
      expect(chain.stateDb.root().equals(tip.stateRoot)).toBe(true);
    } finally {
      await chain.close();
    }

    // The same data dir continues from its stored tip once given the good blocks.
    const resumed = await replay(writeBlocks('good.ndjson', lines), dataPath);
    expect(resumed.code).toBe(0);
    const last = lines[lines.length - 1] as DevBlockLine;
    const finalLine = JSON.parse(resumed.stdout.trim()) as { height: number; id: string; stateRoot: string };
    expect(finalLine.height).toBe(last.height);
    expect(finalLine.id).toBe(last.id);
    expect(finalLine.stateRoot).toBe(Block.fromBytes(Buffer.from(last.blockHex, 'hex')).header.stateRoot.toString('hex'));
  });

  it('reads lines ahead but reports a bad line only in its turn, after applying the blocks before it', async () => {
    const path = join(workDir, 'garbage.ndjson');
    const good = lines.map((line) => JSON.stringify({ height: line.height, blockHex: line.blockHex }));
    writeFileSync(path, [...good.slice(0, 4), 'not json', ...good.slice(4)].join('\n'));
    const dataPath = join(workDir, 'garbage');

    const result = await replay(path, dataPath);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Line 5 of the blocks file is not JSON.');
    const chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      expect(chain.processor.tipHeader().id.toString('hex')).toBe(lines[3]?.id);
    } finally {
      await chain.close();
    }
  });

  it('answers a missing flag with exit 1 and the usage text', async () => {
    const result = await runBasalt(['blockchain:replay', 'x.ndjson']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--genesis is required');
    expect(result.stderr).toContain('Usage: basalt blockchain:replay');
  });
});
