/**
 * A chain held in memory as encoded blocks, for serving P2P procedures in tests: the dev fixture
 * chain of test/fixtures/chains/dev (a real lisk-sdk 6.1 chain), block bytes as recorded.
 */
import { Block } from '../../../../src/chain/block.js';
import { codec } from '../../../../src/codec/index.js';
import { type P2pChainSource, chainProcedures } from '../../../../src/p2p/chain-procedures.js';
import { P2pNetwork, p2pSchemas } from '../../../../src/p2p/index.js';
import { devBlockLines } from '../../../support/dev-chain.js';

export class MemoryChain implements P2pChainSource {
  private readonly heights = new Map<string, number>();

  /** `blocks[i]` is the block at height `firstHeight + i`; `ids[i]` its ID. */
  constructor(
    readonly blocks: Buffer[],
    readonly ids: Buffer[],
    readonly firstHeight = 0,
  ) {
    ids.forEach((id, i) => this.heights.set(id.toString('hex'), firstHeight + i));
  }

  get tipHeight(): number {
    return this.firstHeight + this.blocks.length - 1;
  }

  lastBlock(): Buffer {
    return this.blocks[this.blocks.length - 1]!;
  }

  heightOf(blockId: Buffer): number | undefined {
    return this.heights.get(blockId.toString('hex'));
  }

  blocksBetween(from: number, to: number): Buffer[] {
    const start = Math.max(from, this.firstHeight) - this.firstHeight;
    const end = Math.min(to, this.tipHeight) - this.firstHeight;
    return start > end ? [] : this.blocks.slice(start, end + 1);
  }

  /** Adds the next block (a node that just produced or received it). */
  append(block: Buffer, id: Buffer): void {
    this.heights.set(id.toString('hex'), this.firstHeight + this.blocks.length);
    this.blocks.push(block);
    this.ids.push(id);
  }

  idAt(height: number): Buffer {
    return this.ids[height - this.firstHeight]!;
  }
}

/** The dev fixture chain from genesis up to `tipHeight` (default: all 421 blocks, heights 0..420). */
export function devChain(tipHeight = Number.POSITIVE_INFINITY): MemoryChain {
  const lines = devBlockLines().filter((line) => line.height <= tipHeight);
  return new MemoryChain(
    lines.map((line) => Buffer.from(line.blockHex, 'hex')),
    lines.map((line) => Buffer.from(line.id, 'hex')),
  );
}

/** A `postBlock` message's payload. */
export const encodePostBlock = (block: Uint8Array): Buffer => codec.encode(p2pSchemas.postBlockSchema, { block });

/**
 * A P2P node on `host` (dev chain ID 04000000, network version 1.0, lisk-sdk's timings) that
 * serves `chain` and announces its tip in its node info, as a node holding that chain would.
 */
export async function serveChain(chain: MemoryChain, host: string): Promise<P2pNetwork> {
  const tip = Block.fromBytes(chain.lastBlock());
  const network = new P2pNetwork({
    chainID: Buffer.from('04000000', 'hex'),
    networkVersion: '1.0',
    port: 0,
    host,
    handlers: { procedures: chainProcedures(chain) },
    nodeInfoOptions: {
      height: tip.header.height,
      maxHeightPrevoted: tip.header.maxHeightPrevoted,
      blockVersion: tip.header.version,
      lastBlockID: tip.header.id,
    },
  });
  await network.start();
  return network;
}
