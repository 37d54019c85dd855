/**
 * Replay of the dev chain (test/fixtures/chains/dev, 420 blocks made by lisk-sdk 6.1) through the
 * node's real write path: openChain (LMDB store in a fresh temporary directory, genesis block
 * executed) and then ChainProcessor.processBlock for every block, as `basalt blockchain:replay`
 * does. LMDB runs in the node's default durability mode (durable commits: one fsync per block),
 * so blocks/s includes the disk. One pass: the figure is a macro run, not a micro-benchmark.
 * The final tip must match the fixture, so a replay that diverges fails instead of reporting.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { openChain } from '../../src/node.js';
import { DEV_CONFIG_FILE, DEV_GENESIS_FILE, readDevBlocks } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import type { Suite } from '../lib/suite.js';

export const replaySuite: Suite = {
  name: 'replay',
  summary: 'dev chain through openChain + processBlock on LMDB (durable commits)',
  async run(progress) {
    const config = loadChainConfig(DEV_CONFIG_FILE);
    const genesisBytes = readFileSync(DEV_GENESIS_FILE);
    const blocks = readDevBlocks().filter((b) => b.height > 0);
    const last = blocks[blocks.length - 1];
    if (last === undefined) throw new Error('The dev chain has no blocks after genesis.');
    const dataPath = mkdtempSync(join(tmpdir(), 'basalt-bench-replay-'));
    try {
      progress('replay: genesis');
      const genesisStart = performance.now();
      const chain = await openChain({ dataPath, config, genesisBlock: Block.fromBytes(genesisBytes) });
      const genesisMs = performance.now() - genesisStart;
      let blocksMs: number;
      try {
        progress(`replay: ${blocks.length} blocks`);
        const start = performance.now();
        // Decoding is part of the timed loop, as in the CLI: bytes in, applied block out.
        for (const { bytes } of blocks) await chain.processor.processBlock(Block.fromBytes(bytes));
        blocksMs = performance.now() - start;
        const tip = chain.processor.tipHeader();
        const expected = Block.fromBytes(last.bytes).header.id;
        if (tip.height !== last.height || !tip.id.equals(expected)) {
          throw new Error(`Replay ended at height ${tip.height}, not at the fixture's tip ${last.height}.`);
        }
      } finally {
        await chain.close();
      }
      const results: Measurement[] = [
        { name: 'replay genesis block (openChain)', value: genesisMs, unit: 'ms' },
        { name: `replay dev chain ${blocks.length} blocks (durable commits)`, value: (blocks.length / blocksMs) * 1000, unit: 'blocks/s' },
      ];
      return results;
    } finally {
      rmSync(dataPath, { recursive: true, force: true });
    }
  },
};
