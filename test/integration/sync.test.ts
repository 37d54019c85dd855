/**
 * The synchronizer (LIP 0014 block synchronization) on real LMDB chains: a fresh node reaches the
 * real lisk-sdk dev chain from peers that serve it, a peer serving blocks that fail verification
 * is penalised and nothing of its chain is kept, a peer that stalls ends the run with a penalty,
 * and temp blocks left by an interrupted switch are put back at start-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { blockSchema } from '../../src/chain/schemas.js';
import { TempBlockStore } from '../../src/chain/temp-block-store.js';
import { codec } from '../../src/codec/index.js';
import { Synchronizer, type SynchronizerOptions } from '../../src/engine/sync/index.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { ChainPeersNetwork, type ChainPeer } from '../support/chain-peers.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';
import { seedDevGenesis } from '../support/dev-genesis-store.js';

const root = mkdtempSync(join(tmpdir(), 'basalt-sync-'));
let counter = 0;
const blocks = devBlockLines()
  .slice(1)
  .map((line) => Block.fromBytes(Buffer.from(line.blockHex, 'hex')));
const tipBlock = blocks[blocks.length - 1] as Block;

/** A new node holding only the dev genesis block (copied from the store the global setup built). */
async function freshChain(name = `node-${(counter += 1)}`): Promise<OpenChain> {
  const dataPath = join(root, name);
  await seedDevGenesis(dataPath);
  return openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
}

function synchronizerFor(chain: OpenChain, network: ChainPeersNetwork): Synchronizer {
  return new Synchronizer(synchronizerOptions(chain, network));
}

describe('synchronizer', () => {
  let source: OpenChain;

  beforeAll(async () => {
    source = await freshChain();
    for (const block of blocks) await source.processor.processBlock(block);
  });

  afterAll(async () => {
    await source?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves each stored block, encoded from the stored bytes, byte for byte as lisk-sdk made it', () => {
    const lines = devBlockLines();
    for (const line of lines) {
      expect(source.chainStore.getEncodedBlockByHeight(line.height)?.toString('hex')).toBe(line.blockHex);
    }
    expect(source.chainStore.getEncodedBlockByHeight(lines.length)).toBeUndefined();
  });

  it('syncs a fresh node to the dev chain with block synchronization: same tip, same state root, no penalty', async () => {
    const follower = await freshChain();
    try {
      const network = new ChainPeersNetwork(new Map([['127.0.0.2:7667', { chainStore: source.chainStore }]]));
      const applied: number[] = [];
      const listened = new Synchronizer({
        ...synchronizerOptions(follower, network),
        listener: { blockApplied: (p) => applied.push(p.block.header.height) },
      });
      expect(listened.isActive).toBe(false);
      const run = listened.run(tipBlock, '127.0.0.2:7667');
      expect(listened.isActive).toBe(true);
      await run;
      expect(listened.isActive).toBe(false);
      expect(follower.processor.tipHeader().id.equals(tipBlock.header.id)).toBe(true);
      expect(follower.stateDb.root().equals(source.stateDb.root())).toBe(true);
      expect(applied).toEqual(blocks.map((block) => block.header.height));
      expect(network.penalties).toEqual([]);
      expect(new TempBlockStore(follower.env).isEmpty()).toBe(true);
      // Fetched in answers of at most 103 blocks.
      expect(network.requests.filter((r) => r.endsWith('getBlocksFromId')).length).toBe(Math.ceil(blocks.length / 103));
    } finally {
      await follower.close();
    }
  });

  it('penalises a peer serving a block that fails verification, keeping only the valid blocks before it', async () => {
    const follower = await freshChain();
    try {
      // In place of block 50 it serves block 51: it decodes and passes the static checks, then
      // fails verification (height and previous block ID).
      const hostile: ChainPeer = {
        chainStore: source.chainStore,
        serve: (block) => (block.header.height === 50 ? (blocks[50] as Block).bytes : block.bytes),
      };
      const network = new ChainPeersNetwork(new Map([['127.0.0.3:7667', hostile]]));
      await synchronizerFor(follower, network).run(tipBlock, '127.0.0.3:7667');
      // Penalised each time it served the bad block, until the run gives up.
      expect(network.penalties.length).toBeGreaterThan(0);
      expect(network.penalties.every((p) => p.peerId === '127.0.0.3:7667' && p.points === 100)).toBe(true);
      const tip = follower.processor.tipHeader();
      expect(tip.height).toBe(49);
      // Every stored block is the reference block at its height.
      for (let height = 1; height <= tip.height; height += 1) {
        expect(follower.chainStore.getHeaderByHeight(height)?.id.equals(blocks[height - 1]?.header.id as Buffer)).toBe(true);
      }
    } finally {
      await follower.close();
    }
  });

  it('penalises a peer that stalls mid-sync, and the store stays at genesis', async () => {
    const follower = await freshChain();
    try {
      const network = new ChainPeersNetwork(new Map([['127.0.0.4:7667', { chainStore: source.chainStore, stalls: true }]]));
      await synchronizerFor(follower, network).run(tipBlock, '127.0.0.4:7667');
      expect(network.penalties.length).toBeGreaterThan(0);
      expect(network.penalties.every((p) => p.peerId === '127.0.0.4:7667' && p.points === 100)).toBe(true);
      expect(follower.processor.tipHeader().height).toBe(0);
    } finally {
      await follower.close();
    }
  });

  it('penalises the sender of an invalid block and does not sync', async () => {
    const follower = await freshChain();
    try {
      const network = new ChainPeersNetwork(new Map([['127.0.0.5:7667', { chainStore: source.chainStore }]]));
      const decoded = codec.decode<{ header: Buffer; transactions: Buffer[]; assets: Buffer[] }>(blockSchema, tipBlock.bytes);
      // A transaction dropped: the transaction root no longer matches (a static check).
      const invalid = Block.fromBytes(codec.encode(blockSchema, { ...decoded, transactions: decoded.transactions.slice(1) }));
      if (decoded.transactions.length === 0) return;
      await synchronizerFor(follower, network).run(invalid, '127.0.0.5:7667');
      expect(network.penalties).toEqual([{ peerId: '127.0.0.5:7667', points: 100 }]);
      expect(network.requests).toEqual([]);
    } finally {
      await follower.close();
    }
  });

  it('puts back at start-up the temp blocks of a switch that was interrupted', async () => {
    const dataPath = join(root, 'interrupted');
    let chain = await freshChain('interrupted');
    for (const block of blocks.slice(0, 100)) await chain.processor.processBlock(block);
    const stateRoot = chain.stateDb.root();
    // A switch deleted ten blocks, keeping them, and the process died before applying the new ones.
    const temp = new TempBlockStore(chain.env);
    await chain.processor.withTipLock((writer) => {
      for (let i = 0; i < 10; i += 1) writer.revertTip(temp);
    });
    expect(chain.processor.tipHeader().height).toBe(90);
    await chain.close();

    chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      await synchronizerFor(chain, new ChainPeersNetwork(new Map())).init();
      expect(chain.processor.tipHeader().id.equals(blocks[99]?.header.id as Buffer)).toBe(true);
      expect(chain.stateDb.root().equals(stateRoot)).toBe(true);
      expect(new TempBlockStore(chain.env).isEmpty()).toBe(true);
    } finally {
      await chain.close();
    }
  });
});

function synchronizerOptions(chain: OpenChain, network: ChainPeersNetwork): SynchronizerOptions {
  return {
    processor: chain.processor,
    chainStore: chain.chainStore,
    stateDb: chain.stateDb,
    bft: chain.bft,
    tempBlocks: new TempBlockStore(chain.env),
    maxTransactionsSize: devChainConfig().genesis.maxTransactionsSize,
    network,
    random: () => 0,
  };
}
