import type { Database, RootDatabase } from 'lmdb';
import { Block } from './block.js';

/**
 * Blocks the synchronizer deleted from the tip while it moves to another chain, kept so that the
 * old chain can be put back if the new one fails (lisk-sdk keeps them in its temp-blocks table:
 * `elements/lisk-chain/src/data_access/storage.ts`). They are written in the same LMDB
 * transaction as the deletion, so a crash in the middle of a switch leaves either the old tip or
 * the blocks that restore it; at start-up the synchronizer puts them back if they still beat the
 * tip (docs/protocol/sync.md).
 */
export class TempBlockStore {
  private readonly blocks: Database<Buffer, Buffer>;

  constructor(env: RootDatabase) {
    this.blocks = env.openDB<Buffer, Buffer>('chain.tempBlocks', { keyEncoding: 'binary', encoding: 'binary' });
  }

  /** Keeps a deleted block; call inside the environment's write transaction that deletes it. */
  save(block: Block): void {
    this.blocks.putSync(heightKey(block.header.height), block.bytes);
  }

  /** The kept blocks, highest first (lisk-sdk's order). */
  list(): Block[] {
    const blocks: Block[] = [];
    for (const { value } of this.blocks.getRange({ reverse: true })) blocks.push(Block.fromBytes(value));
    return blocks;
  }

  isEmpty(): boolean {
    for (const _ of this.blocks.getKeys({ limit: 1 })) return false;
    return true;
  }

  /** Forgets every kept block (its own durable transaction). */
  clear(): void {
    this.blocks.clearSync();
  }
}

function heightKey(height: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(height);
  return key;
}
