/**
 * ChainStore on a real LMDB environment in a fresh temporary directory: the first blocks of the
 * dev chain (genesis included) with their real events are saved, read back by height and ID,
 * their transactions and events looked up, then the tip is reverted and old events pruned.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { ChainStore } from '../../../src/chain/chain-store.js';
import { eventToJSON, type EventJSON, type EventProps } from '../../../src/chain/event.js';
import { eventSchema } from '../../../src/chain/schemas.js';
import { codec } from '../../../src/codec/index.js';
import { NotFoundError } from '../../../src/errors.js';
import { loadBinaryFixture } from '../../support/fixtures.js';

interface StoredBlock {
  block: Block;
  events: EventProps[];
  eventsJSON: EventJSON[];
}

const HEIGHTS = 4; // genesis and heights 1..3 (height 2 has 11 transactions, 3 has 8)

function loadDevChain(): StoredBlock[] {
  const lines = (path: string): string[] => loadBinaryFixture(path).toString('utf8').split('\n', HEIGHTS);
  const events = lines('chains/dev/events.ndjson').map((line) => JSON.parse(line) as { height: number; events: EventJSON[] });
  return lines('chains/dev/blocks.ndjson').map((line, i) => {
    const { height, blockHex } = JSON.parse(line) as { height: number; blockHex: string };
    const eventsJSON = (events[i] as { height: number; events: EventJSON[] }).events;
    expect(events[i]?.height).toBe(height);
    return {
      block: Block.fromBytes(Buffer.from(blockHex, 'hex')),
      events: eventsJSON.map((json) => codec.fromJSON<EventProps>(eventSchema, json)),
      eventsJSON,
    };
  });
}

describe('ChainStore over LMDB', () => {
  const chain = loadDevChain();
  let dir: string;
  let env: RootDatabase;
  let store: ChainStore;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-chain-store-'));
    env = open({ path: dir });
    store = new ChainStore(env);
  });

  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts empty', () => {
    expect(store.isEmpty()).toBe(true);
    expect(() => store.tipHeight()).toThrow(NotFoundError);
    expect(() => store.genesisHeight()).toThrow(NotFoundError);
    expect(store.getHeaderByHeight(0)).toBeUndefined();
    expect(() => store.getBlockByHeight(0)).toThrow(NotFoundError);
  });

  it('saves blocks with their events inside write transactions', () => {
    chain.forEach(({ block, events }, height) => {
      env.transactionSync(() => store.saveBlock(block, events, Math.max(0, height - 2)));
    });
    expect(store.isEmpty()).toBe(false);
    expect(store.genesisHeight()).toBe(0);
    expect(store.tipHeight()).toBe(HEIGHTS - 1);
    expect(store.finalizedHeight()).toBe(1);
  });

  it('reads every block back by height and by ID, byte for byte', () => {
    for (const { block } of chain) {
      const { height } = block.header;
      expect(store.getBlockByHeight(height).bytes.equals(block.bytes)).toBe(true);
      expect(store.getBlockById(block.header.id)?.bytes.equals(block.bytes)).toBe(true);
      expect(store.getHeaderByHeight(height)?.id.equals(block.header.id)).toBe(true);
      expect(store.getHeaderById(block.header.id)?.height).toBe(height);
      expect(store.getHeightById(block.header.id)).toBe(height);
    }
    expect(store.getBlockById(Buffer.alloc(32))).toBeUndefined();
    expect(store.getHeaderById(Buffer.alloc(32))).toBeUndefined();
    expect(() => store.getBlockByHeight(HEIGHTS)).toThrow(NotFoundError);
  });

  it('finds every transaction by ID', () => {
    const transactions = chain.flatMap(({ block }) => block.transactions);
    expect(transactions).toHaveLength(19);
    for (const tx of transactions) expect(store.getTransaction(tx.id)?.bytes.equals(tx.bytes)).toBe(true);
    expect(store.getTransaction(Buffer.alloc(32))).toBeUndefined();
  });

  it('returns the events of each height as saved', () => {
    for (const { block, eventsJSON } of chain) {
      expect(store.getEvents(block.header.height)?.map(eventToJSON)).toEqual(eventsJSON);
    }
    expect(store.getEvents(HEIGHTS)).toBeUndefined();
  });

  it('deletes the tip block with its transactions and events', () => {
    const tip = chain[HEIGHTS - 1] as StoredBlock;
    const deleted = env.transactionSync(() => store.deleteTipBlock());
    expect(deleted.bytes.equals(tip.block.bytes)).toBe(true);
    expect(store.tipHeight()).toBe(HEIGHTS - 2);
    expect(store.getHeaderByHeight(HEIGHTS - 1)).toBeUndefined();
    expect(store.getBlockById(tip.block.header.id)).toBeUndefined();
    expect(store.getEvents(HEIGHTS - 1)).toBeUndefined();
    for (const tx of tip.block.transactions) expect(store.getTransaction(tx.id)).toBeUndefined();
    // The block below is untouched and the block can be saved again.
    expect(store.getBlockByHeight(HEIGHTS - 2).bytes.equals((chain[HEIGHTS - 2] as StoredBlock).block.bytes)).toBe(true);
    // Saved again without events: an empty list is stored, which differs from "pruned" (undefined).
    env.transactionSync(() => store.saveBlock(tip.block, [], 1));
    expect(store.tipHeight()).toBe(HEIGHTS - 1);
    expect(store.getTransaction((tip.block.transactions[0] as { id: Buffer }).id)).toBeDefined();
    expect(store.getEvents(HEIGHTS - 1)).toEqual([]);
  });

  it('never deletes the genesis block', () => {
    const other = join(dir, 'genesis-only');
    const genesisEnv = open({ path: other });
    const genesisStore = new ChainStore(genesisEnv);
    const genesis = chain[0] as StoredBlock;
    genesisEnv.transactionSync(() => genesisStore.saveBlock(genesis.block, genesis.events, 0));
    expect(() => genesisEnv.transactionSync(() => genesisStore.deleteTipBlock())).toThrow(/genesis/);
    expect(genesisStore.tipHeight()).toBe(0);
    return genesisEnv.close();
  });

  it('prunes events up to a height, keeping the blocks', () => {
    env.transactionSync(() => store.deleteEventsUpTo(-5));
    expect(store.getEvents(0)).toBeDefined();
    env.transactionSync(() => store.deleteEventsUpTo(1));
    expect(store.getEvents(0)).toBeUndefined();
    expect(store.getEvents(1)).toBeUndefined();
    expect(store.getEvents(2)?.length).toBe((chain[2] as StoredBlock).events.length);
    expect(store.getBlockByHeight(1).header.height).toBe(1);
    expect(store.getEvents(3)).toEqual([]);
    env.transactionSync(() => store.deleteEventsUpTo(0xffffffff));
    expect(store.getEvents(2)).toBeUndefined();
    expect(store.getEvents(3)).toBeUndefined();
  });

  it('keeps the finalized height of the last saved block', () => {
    expect(store.finalizedHeight()).toBe(1);
    const tip = chain[HEIGHTS - 1] as StoredBlock;
    env.transactionSync(() => store.deleteTipBlock());
    env.transactionSync(() => store.saveBlock(tip.block, tip.events, 2));
    expect(store.finalizedHeight()).toBe(2);
  });
});
