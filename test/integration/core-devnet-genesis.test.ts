/**
 * Lisk Core v4's own devnet genesis block (test/fixtures/genesis/lisk-core-devnet), which carries
 * the legacy module's asset: Basalt executes it to exactly the roots in its header, with the
 * legacy module registered because the genesis has its asset.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { openChain } from '../../src/node.js';
import { recordCases } from '../support/conformance-tally.js';
import { fixturePath, loadBinaryFixture } from '../support/fixtures.js';

describe('Lisk Core v4 devnet genesis', () => {
  const dataPath = mkdtempSync(join(tmpdir(), 'basalt-core-devnet-'));
  afterAll(() => rmSync(dataPath, { recursive: true, force: true }));

  it('executes to the header stateRoot, eventRoot and validatorsHash with the legacy module', async () => {
    const genesisBlock = Block.fromBytes(loadBinaryFixture('genesis/lisk-core-devnet/genesis_block.blob'));
    const config = loadChainConfig(fixturePath('genesis/lisk-core-devnet/config.json'));
    // openChain rejects the genesis block unless all three roots match what execution computes.
    const chain = await openChain({ dataPath, config, genesisBlock });
    try {
      expect(chain.modules.legacy).toBeDefined();
      expect(chain.stateDb.root().equals(genesisBlock.header.stateRoot)).toBe(true);
      expect(chain.processor.tipHeader().id.toString('hex')).toBe(genesisBlock.header.id.toString('hex'));
      recordCases('genesis/lisk-core-devnet/genesis_block.blob', 1);
    } finally {
      await chain.close();
    }
  });
});
