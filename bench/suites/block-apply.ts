/**
 * Block apply of full transfer blocks (issue 7 target: at least 10,000 tx/s, signatures
 * included). The blocks are real: forged on the dev chain by its validators (lib/transfer-chain.ts),
 * 95 token transfers each (the chain's 15,360-byte maxTransactionsSize), from 103 senders.
 * A second store, with the dev chain replayed, then applies them through
 * ChainProcessor.processBlock, the path of replay and of blocks from peers: decode, static
 * checks, header signature, transaction signatures (through whichever verifier the engine holds),
 * execution, state and event roots, BFT, and the LMDB commit in the node's default durable mode
 * (one fsync per block). The final state root must be the producer's, or the suite fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { DEV_CONFIG_FILE } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import type { Suite } from '../lib/suite.js';
import { openReplayedDevChain, produceTransferBlocks } from '../lib/transfer-chain.js';

export const blockApplySuite: Suite = {
  name: 'block-apply',
  summary: 'full token-transfer blocks through processBlock on LMDB (durable commits), tx/s',
  async run(progress, options) {
    const count = options.quick ? 6 : 30;
    const config = loadChainConfig(DEV_CONFIG_FILE);
    const work = mkdtempSync(join(tmpdir(), 'basalt-bench-apply-'));
    try {
      progress(`block-apply: forging ${count} full transfer blocks on the dev chain`);
      const blocks = (await produceTransferBlocks(join(work, 'producer'), config, count)).map(bytes => Block.fromBytes(bytes));
      const transactions = blocks.reduce((n, b) => n + b.transactions.length, 0);
      progress(`block-apply: ${transactions} transfers in ${count} blocks (${(transactions / count).toFixed(0)} per block); replaying the dev chain into a second store`);
      const clock = { now: 0 };
      const chain = await openReplayedDevChain(join(work, 'replica'), config, clock);
      let ms: number;
      try {
        clock.now = blocks[blocks.length - 1]!.header.timestamp;
        const bytes = blocks.map(b => b.bytes);
        const start = performance.now();
        // Bytes in, committed block out, as the replay CLI and the network path do.
        for (const b of bytes) await chain.processor.processBlock(Block.fromBytes(b));
        ms = performance.now() - start;
        const tip = chain.processor.tipHeader();
        const last = blocks[blocks.length - 1]!.header;
        if (!tip.id.equals(last.id) || !chain.stateDb.root().equals(last.stateRoot)) throw new Error('The replica did not reach the producer\'s tip and state root.');
      } finally {
        await chain.close();
      }
      const results: Measurement[] = [
        { name: `block apply ${count} full transfer blocks, ${transactions} tx (durable commits)`, value: (transactions / ms) * 1000, unit: 'tx/s' },
        { name: `block apply ${count} full transfer blocks (durable commits)`, value: (count / ms) * 1000, unit: 'blocks/s' },
      ];
      return results;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
