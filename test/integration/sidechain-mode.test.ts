/**
 * Sidechain mode on the real lisk-sdk 6.1 sidechain of test/fixtures/chains/interop-dev (chain
 * 04000001): the chain ID alone makes openChain build the sidechain module set, with lisk-sdk's
 * interoperability metadata. interop-sidechain-replay.test.ts replays its blocks.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { SidechainInteroperabilityModule } from '../../src/modules/interoperability/sidechain/index.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { fixturePath, loadJsonFixture } from '../support/fixtures.js';

const CHAIN_DIR = fixturePath('chains/interop-dev/sidechain');

describe('sidechain mode from the chain ID of fixtures/chains/interop-dev/sidechain', () => {
  let dataPath: string;
  let chain: OpenChain;

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-sidechain-mode-'));
    chain = await openChain({
      dataPath,
      config: loadChainConfig(join(CHAIN_DIR, 'config.json')),
      genesisBlock: Block.fromBytes(readFileSync(join(CHAIN_DIR, 'genesis_block.blob'))),
    });
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('builds the sidechain module set, in lisk-sdk order, from the chain ID', () => {
    expect(chain.modules.list.map((module) => module.name)).toEqual([
      'auth',
      'validators',
      'token',
      'fee',
      'interoperability',
      'pos',
      'random',
      'dynamicReward',
    ]);
    expect(chain.modules.interoperability).toBeInstanceOf(SidechainInteroperabilityModule);
  });

  it('reports the interoperability metadata of lisk-sdk 6.1 on a sidechain', () => {
    const recorded = loadJsonFixture<{ modules: { name: string }[] }>('chains/interop-dev/sidechain/metadata.json').modules.find(
      (module) => module.name === 'interoperability',
    );
    const { name: _name, ...expected } = recorded as { name: string };
    const metadata = chain.modules.interoperability.metadata();
    expect(JSON.parse(JSON.stringify(metadata))).toEqual(expected);
  });
});
