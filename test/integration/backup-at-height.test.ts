/**
 * system.backup.height: a node replaying the dev chain with backup.height = 10 copies its store
 * to `<dataPath>/backup` when block 10 is stored, while it goes on applying blocks. The copy is a
 * data directory: a chain opened on it is at height 10 with block 10's state root, and it applies
 * the rest of the chain to the reference tip.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { backupDataPath } from '../../src/chain/chain-backup.js';
import { silentLogger, type Logger } from '../../src/logger.js';
import { openChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devFinalState, devGenesisBlock } from '../support/dev-chain.js';

const BACKUP_HEIGHT = 10;

describe('backup at a height (system.backup.height)', () => {
  let workDir: string;
  const blocks = devBlockLines().map((line) => Block.fromBytes(Buffer.from(line.blockHex, 'hex')));

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-backup-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it(`writes a copy of the store at height ${BACKUP_HEIGHT} that opens as a data directory`, async () => {
    const dataPath = join(workDir, 'node');
    const logged: { msg: string | undefined; fields: object }[] = [];
    const record = (fields: object, msg?: string): void => {
      logged.push({ msg, fields });
    };
    const logger: Logger = { ...silentLogger, info: record, error: record };
    const chain = await openChain({
      dataPath,
      config: { ...devChainConfig(), backupHeight: BACKUP_HEIGHT },
      genesisBlock: devGenesisBlock(),
      logger,
    });
    try {
      // Blocks keep coming right after the backup height: the copy must still hold height 10 only.
      for (const block of blocks.slice(1, 40)) await chain.processor.processBlock(block);
      expect(chain.chainStore.tipHeight()).toBe(39);
    } finally {
      await chain.close();
    }
    const written = logged.find((entry) => entry.msg === 'Backup of the data directory written');
    expect(written?.fields).toMatchObject({ height: BACKUP_HEIGHT, path: backupDataPath(dataPath) });
    expect(logged.filter((entry) => entry.msg === 'Failed to write the backup')).toEqual([]);

    const backupPath = backupDataPath(dataPath);
    expect(existsSync(join(backupPath, 'basalt.lmdb'))).toBe(true);
    const restored = await openChain({ dataPath: backupPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      const tip = restored.processor.tipHeader();
      const reference = blocks[BACKUP_HEIGHT] as Block;
      expect(tip.height).toBe(BACKUP_HEIGHT);
      expect(tip.id.equals(reference.header.id)).toBe(true);
      expect(restored.stateDb.root().equals(reference.header.stateRoot)).toBe(true);
      for (const block of blocks.slice(BACKUP_HEIGHT + 1)) await restored.processor.processBlock(block);
      const final = devFinalState().tip;
      const end = restored.processor.tipHeader();
      expect({ height: end.height, id: end.id.toString('hex'), stateRoot: end.stateRoot.toString('hex') }).toEqual({
        height: final.height,
        id: final.id,
        stateRoot: final.stateRoot,
      });
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('writes nothing with backup.height 0', async () => {
    const dataPath = join(workDir, 'no-backup');
    const chain = await openChain({ dataPath, config: { ...devChainConfig(), backupHeight: 0 }, genesisBlock: devGenesisBlock() });
    try {
      for (const block of blocks.slice(1, 12)) await chain.processor.processBlock(block);
    } finally {
      await chain.close();
    }
    expect(existsSync(backupDataPath(dataPath))).toBe(false);
  }, 60_000);
});
