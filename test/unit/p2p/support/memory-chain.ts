/**
 * A chain held in memory as encoded blocks, for serving P2P procedures in tests: the dev fixture
 * chain of test/fixtures/chains/dev (a real lisk-sdk 6.1 chain), block bytes as recorded.
 */
import type { P2pChainSource } from '../../../../src/p2p/chain-procedures.js';
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
