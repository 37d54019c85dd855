/**
 * Block production on top of the real dev chain: the dev validators' keys generate the next
 * blocks slot by slot (simulated clock), every block passes the normal validation path, blocks
 * finalize and get certified, and a fresh node replaying the produced blocks reaches the same roots.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { createChainForger, openChain, type OpenChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';
import { seedDevGenesis } from '../support/dev-genesis-store.js';
import { devValidatorKeypairs } from '../support/dev-keys.js';
import { adoptGeneratorInfoOfChain } from '../support/generator-info.js';

const BLOCKS_TO_PRODUCE = 240;

describe('block production on the dev chain', () => {
  let workDir: string;
  let chain: OpenChain;
  let clock = 0;
  const config = devChainConfig();

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-production-'));
    await seedDevGenesis(join(workDir, 'producer'));
    chain = await openChain({ dataPath: join(workDir, 'producer'), config, genesisBlock: devGenesisBlock(), now: () => clock });
    for (const line of devBlockLines().slice(1)) {
      const block = Block.fromBytes(Buffer.from(line.blockHex, 'hex'));
      clock = block.header.timestamp;
      await chain.processor.processBlock(block);
    }
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('generates valid blocks in the slots of local validators, finalizes and certifies them', async () => {
    const { forger, generatorStore } = createChainForger(chain, {
      genesisConfig: config.genesis,
      candidates: () => ({ byAccount: new Map(), feePriority: () => 0n }),
      now: () => clock,
    });
    adoptGeneratorInfoOfChain(chain.chainStore, generatorStore);
    for (const keypair of devValidatorKeypairs()) forger.enable(keypair);

    const startHeight = chain.chainStore.tipHeight();
    const { maxHeightCertified: certifiedBefore } = chain.bft.getHeights(chain.stateDb.engineReader);
    let produced = 0;
    let ticks = 0;
    // One tick per simulated second, as the forger's timer runs; slots of validators whose keys
    // this node does not hold stay empty.
    while (produced < BLOCKS_TO_PRODUCE) {
      clock += 1;
      ticks += 1;
      if (await forger.tick()) produced += 1;
      expect(ticks).toBeLessThan(BLOCKS_TO_PRODUCE * config.genesis.blockTime * 2);
    }

    const tip = chain.processor.tipHeader();
    expect(tip.height).toBe(startHeight + BLOCKS_TO_PRODUCE);
    expect(chain.stateDb.root().equals(tip.stateRoot)).toBe(true);
    const heights = chain.bft.getHeights(chain.stateDb.engineReader);
    expect(chain.chainStore.finalizedHeight()).toBeGreaterThan(startHeight);
    expect(heights.maxHeightCertified).toBeGreaterThan(certifiedBefore);
    const certifying = [...Array(BLOCKS_TO_PRODUCE).keys()]
      .map((i) => chain.chainStore.getHeaderByHeight(startHeight + 1 + i))
      .filter((header) => header && header.aggregateCommit.certificateSignature.length > 0);
    expect(certifying.length).toBeGreaterThan(0);
  });

  it('is reproduced exactly by a fresh node replaying the produced blocks', async () => {
    await seedDevGenesis(join(workDir, 'replica'));
    const replica = await openChain({ dataPath: join(workDir, 'replica'), config, genesisBlock: devGenesisBlock(), now: () => clock });
    try {
      const tipHeight = chain.chainStore.tipHeight();
      for (let height = 1; height <= tipHeight; height += 1) {
        await replica.processor.processBlock(Block.fromBytes(chain.chainStore.getBlockByHeight(height).bytes));
      }
      expect(replica.processor.tipHeader().id.equals(chain.processor.tipHeader().id)).toBe(true);
      expect(replica.stateDb.root().equals(chain.stateDb.root())).toBe(true);
    } finally {
      await replica.close();
    }
  });
});
