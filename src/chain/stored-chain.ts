/**
 * Walks over the blocks a chain store holds, checking that each is whole and that the heights
 * form one chain: what `blockchain:export` relies on while a node may revert its tip, and what
 * `blockchain:import` checks before a store from an archive replaces a node's own.
 */
import { StoreError } from '../errors.js';
import type { Block } from './block.js';
import type { BlockHeader } from './block-header.js';
import type { ChainStore } from './chain-store.js';

/** A stored block whose previousBlockID is not the ID of the block stored one height below. */
export class ChainLinkError extends StoreError {
  constructor(readonly height: number) {
    super(`Block ${height} does not link to block ${height - 1}`);
  }
}

/**
 * The stored blocks from `from` to `to`, ascending. Throws StoreError for a height whose block
 * is missing or incomplete, and ChainLinkError for a block that does not link to the one before.
 * Synchronous by design: read within one turn of the event loop, the blocks come from one LMDB
 * read snapshot, so a writer that reverts the tip meanwhile cannot mix two branches in.
 */
export function* linkedBlocks(chainStore: ChainStore, from: number, to: number): Generator<Block> {
  let previousId: Buffer | undefined;
  for (let height = from; height <= to; height += 1) {
    const block = chainStore.getBlockByHeight(height);
    const { id, previousBlockID } = block.header;
    if (block.header.height !== height) throw new StoreError(`The block stored at height ${height} has height ${block.header.height}.`);
    if (previousId !== undefined && !previousBlockID.equals(previousId)) throw new ChainLinkError(height);
    previousId = id;
    yield block;
  }
}

/**
 * Checks every block from the genesis block to the tip: present, whole (its transactions and
 * assets give the roots its header commits to: lisk-sdk v6.1.0 `elements/lisk-chain/src/block.ts`
 * `validate`), indexed under its ID, and linked to its parent by previousBlockID and height.
 * Returns the tip's header. Throws StoreError naming the first height that fails.
 */
export function verifyStoredChain(chainStore: ChainStore): BlockHeader {
  if (chainStore.isEmpty()) throw new StoreError('The chain store holds no block.');
  let tip: BlockHeader | undefined;
  const blocks = linkedBlocks(chainStore, chainStore.genesisHeight(), chainStore.tipHeight());
  for (let next = nextBlock(blocks, chainStore); next !== undefined; next = nextBlock(blocks, chainStore)) {
    const { header } = next;
    if (!header.transactionRoot.equals(next.computeTransactionRoot())) {
      throw new StoreError(`The transactions stored for height ${header.height} do not give its transactionRoot.`);
    }
    if (!header.assetRoot.equals(next.assets.root()))
      throw new StoreError(`The assets stored for height ${header.height} do not give its assetRoot.`);
    if (chainStore.getHeightById(header.id) !== header.height) {
      throw new StoreError(`Block ${header.id.toString('hex')} is not indexed under its height ${header.height}.`);
    }
    tip = header;
  }
  return tip as BlockHeader;
}

/** The walk's next block; a store whose records do not even decode is reported as a StoreError. */
function nextBlock(blocks: Generator<Block>, chainStore: ChainStore): Block | undefined {
  try {
    const next = blocks.next();
    return next.done ? undefined : next.value;
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(`The chain store (tip ${chainStore.tipHeight()}) has a block that cannot be read: ${(error as Error).message}`);
  }
}
