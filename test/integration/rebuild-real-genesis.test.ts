/**
 * The genesis builder against real genesis blocks made by lisk-sdk / Lisk Core: from each
 * genesis_assets.json, its config and the original timestamp, createGenesisBlock must give the
 * original blob byte for byte (so also its ID, stateRoot, eventRoot and validatorsHash).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { parseChainConfig } from '../../src/config/lisk-config.js';
import { createGenesisBlock, readGenesisAssetsFile } from '../../src/genesis/index.js';
import { recordCases } from '../support/conformance-tally.js';
import { fixturePath, loadBinaryFixture } from '../support/fixtures.js';

interface Case {
  readonly dir: string;
  readonly id: string;
  readonly stateRoot: string;
}

const CASES: readonly Case[] = [
  {
    // lisk-sdk 6.1 mainchain app; its genesis has a multisignature account with nonce 3 and a
    // JSON-number uint64 ("ownChainNonce": 0).
    dir: 'chains/dev',
    id: '8befdc28d6af5b3a195e91e166d9170a47642d7f8d52837d219d535f357d3700',
    stateRoot: '293f1513a92079d937a82483a5f9f4d013e8633159851a05f7c5f30e10601050',
  },
  {
    // Lisk Core v4's devnet: 103 validators and the legacy module's asset.
    dir: 'genesis/lisk-core-devnet',
    id: '7a8e35e322dd313c2a3b9ccccd9e2655e6287e3bd91b019bf0666391e7c7662d',
    stateRoot: '81f70782cba69a1ba2d84c9daa50526a23f373d29ef6b77e1fe5eae27f5bbc36',
  },
  {
    // lisk-sdk's pos-mainchain example: an (empty) asset of the nft module, which the mainchain
    // module set does not have and which therefore only counts in the assetRoot.
    dir: 'genesis/pos-mainchain-default',
    id: '5d251fbde8a3b666c476025e7cc32735a9e385f8747cc0df3bfb3ab3f616cac1',
    stateRoot: 'fe11a4b12101cfb2527059fe9574e8084cec825cb2fb49acd344b68e2288318f',
  },
];

function chainConfigOf(dir: string) {
  const raw = JSON.parse(readFileSync(fixturePath(`${dir}/config.json`), 'utf8')) as { genesis: { block?: unknown } };
  // The block source is irrelevant to building the block; some fixture configs point elsewhere.
  raw.genesis.block = { fromFile: './genesis_block.blob' };
  return parseChainConfig(raw, fixturePath(dir));
}

describe('createGenesisBlock rebuilds real genesis blocks exactly', () => {
  for (const testCase of CASES) {
    it(`${testCase.dir}/genesis_block.blob`, async () => {
      const originalBytes = loadBinaryFixture(`${testCase.dir}/genesis_block.blob`);
      const original = Block.fromBytes(originalBytes);
      const config = chainConfigOf(testCase.dir);
      const { block, events } = await createGenesisBlock({
        genesisConfig: config.genesis,
        moduleConfigs: config.modules,
        assets: readGenesisAssetsFile(fixturePath(`${testCase.dir}/genesis_assets.json`)).assets,
        timestamp: original.header.timestamp,
      });
      expect(block.header.stateRoot.toString('hex')).toBe(testCase.stateRoot);
      expect(block.header.eventRoot.toString('hex')).toBe(original.header.eventRoot.toString('hex'));
      expect(block.header.validatorsHash.toString('hex')).toBe(original.header.validatorsHash.toString('hex'));
      expect(block.header.id.toString('hex')).toBe(original.header.id.toString('hex'));
      expect(block.bytes.equals(originalBytes)).toBe(true);
      expect(events.length).toBeGreaterThan(0);
      recordCases(`${testCase.dir}/genesis_block.blob`, 1);
    });
  }
});
