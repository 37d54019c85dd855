/**
 * Legacy sync against peers served in process by the getLegacyBlocksFromId handler over their own
 * stores: a bracket fetched in batches down to its start height, then announced; hostile and
 * failing peers charged or waited for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import {
  decodeLegacyBlock,
  encodeLegacyBlock,
  importLegacyBlocks,
  initLegacyBrackets,
  legacyBlocksAnswerSchema,
  legacyBracket,
  type LegacyChainStore,
  LegacyChainSync,
  type LegacySyncNetwork,
  type V3BlockSource,
} from '../../../src/legacy-chain/index.js';
import { legacyBlocksFromIdHandler } from '../../../src/p2p/legacy-procedures.js';
import * as schemas from '../../../src/p2p/schemas.js';
import { TempLegacyStores } from '../../support/temp-legacy-stores.js';
import { buildV3Chain, v3Transfer } from '../../support/v3-legacy-chain.js';

const chain = buildV3Chain({ length: 260, transactionsAt: (height) => (height % 25 === 0 ? 3 : 0) });
const top = chain.at(-1) as V3BlockSource;
const snapshotBlockId = top.id;
// The bracket starts above the v3 genesis block, as Lisk mainnet's does.
const bracket = legacyBracket({ id: top.id, height: 259 }, 7);

let stores: TempLegacyStores;
const openStore = (name: string): LegacyChainStore => stores.open(name);

beforeEach(() => {
  stores = new TempLegacyStores('basalt-legacy-sync-');
});

afterEach(() => stores.dispose());

interface Peer {
  readonly holds: boolean;
  /** Rewrites the answer bytes (a hostile peer). */
  readonly tamper?: (answer: Buffer) => Buffer;
  readonly fails?: boolean;
}

class InProcessNetwork implements LegacySyncNetwork {
  readonly penalties: { peerId: string; points: number }[] = [];
  readonly announcements: string[][] = [];
  requests = 0;
  private readonly handler;

  constructor(
    source: LegacyChainStore,
    readonly peers: Map<string, Peer>,
  ) {
    this.handler = legacyBlocksFromIdHandler(source);
  }

  peersHolding(): string[] {
    return [...this.peers].filter(([, peer]) => peer.holds).map(([peerId]) => peerId);
  }

  async requestLegacyBlocks(peerId: string, blockId: Buffer, snapshot: Buffer): Promise<Buffer> {
    this.requests += 1;
    const peer = this.peers.get(peerId);
    if (!peer || peer.fails) throw new Error('Request timed out');
    const request = codec.encode(schemas.getLegacyBlocksFromIdRequestSchema, { blockID: blockId, snapshotBlockID: snapshot });
    const answer = Buffer.from((await this.handler(request, { peerId: 'client', penalize: () => {} })) as Uint8Array);
    return peer.tamper ? peer.tamper(answer) : answer;
  }

  penalize(peerId: string, points: number): void {
    this.penalties.push({ peerId, points });
    this.peers.delete(peerId);
  }

  announce(ids: readonly Buffer[]): void {
    this.announcements.push(ids.map((id) => id.toString('hex')));
  }
}

async function servingStore(): Promise<LegacyChainStore> {
  const store = openStore('server');
  await importLegacyBlocks(store, chain.slice(7), bracket);
  return store;
}

function syncer(store: LegacyChainStore, network: LegacySyncNetwork): LegacyChainSync {
  return new LegacyChainSync({ store, brackets: [bracket], network, batchDelayMs: 1, retryDelayMs: 5, maxFailedRequests: 3 });
}

describe('LegacyChainSync', () => {
  it('fetches a bracket in batches below its snapshot block down to its start height, then announces it', async () => {
    const network = new InProcessNetwork(await servingStore(), new Map([['a', { holds: true }]]));
    const store = openStore('client');
    initLegacyBrackets(store, [bracket]);
    const sync = syncer(store, network);
    sync.start();
    await sync.idle();
    // 258 down to 7 is 252 blocks: answers of 101, 101 and 50 (the last reaches the start height).
    expect(network.requests).toBe(3);
    for (let height = 7; height <= 258; height += 1) {
      expect(store.blockByHeight(height)).toEqual({
        id: chain[height]?.id,
        header: chain[height]?.header,
        payload: chain[height]?.transactions,
      });
    }
    expect(store.blockIdAtHeight(6)).toBeUndefined();
    // The snapshot block itself is never fetched: peers answer only the blocks below it.
    expect(store.blockIdAtHeight(259)).toBeUndefined();
    // As lisk-sdk leaves it: the lowest height of the run's first batch, until the next start.
    expect(store.bracketInfo(snapshotBlockId)).toEqual({ startHeight: 7, snapshotBlockHeight: 259, lastBlockHeight: 158 });
    expect(network.announcements).toEqual([[snapshotBlockId.toString('hex')]]);
    expect(network.penalties).toEqual([]);
    initLegacyBrackets(store, [bracket]);
    expect(store.bracketInfo(snapshotBlockId)?.lastBlockHeight).toBe(7);

    // Started again, a complete bracket is announced at once and nothing is asked.
    const again = syncer(store, network);
    again.start();
    await again.idle();
    expect(network.requests).toBe(3);
    expect(network.announcements).toHaveLength(2);
  });

  it('resumes below the lowest block held after a restart', async () => {
    const network = new InProcessNetwork(await servingStore(), new Map([['a', { holds: true }]]));
    const store = openStore('client');
    initLegacyBrackets(store, [bracket]);
    const blocks = chain.slice(200, 259).reverse();
    store.writeBlocks(
      blocks.map((block) => ({ id: block.id, height: block.height, header: block.header, payload: block.transactions })),
      { snapshotBlockId, bracket: { startHeight: 7, snapshotBlockHeight: 259, lastBlockHeight: 200 } },
    );
    const sync = syncer(store, network);
    sync.start();
    await sync.idle();
    expect(network.requests).toBe(2);
    expect(store.bracketInfo(snapshotBlockId)?.lastBlockHeight).toBe(99);
    expect(network.announcements).toHaveLength(1);
  });

  it('charges 100 for an empty answer, a bad transaction root or blocks that do not link, and stores none of them', async () => {
    const source = await servingStore();
    const withBadRoot = (answer: Buffer): Buffer => {
      const { blocks } = codec.decode<{ blocks: Buffer[] }>(legacyBlocksAnswerSchema, answer);
      const first = decodeLegacyBlock(blocks[0] as Buffer);
      blocks[0] = encodeLegacyBlock({ header: first.header, payload: [...first.payload, v3Transfer(77n)] });
      return codec.encode(legacyBlocksAnswerSchema, { blocks });
    };
    const shifted = (answer: Buffer): Buffer => {
      const { blocks } = codec.decode<{ blocks: Buffer[] }>(legacyBlocksAnswerSchema, answer);
      return codec.encode(legacyBlocksAnswerSchema, { blocks: blocks.slice(1) });
    };
    const peers = new Map<string, Peer>([
      ['empty', { holds: true, tamper: () => Buffer.alloc(0) }],
      ['root', { holds: true, tamper: withBadRoot }],
      ['gap', { holds: true, tamper: shifted }],
      ['garbage', { holds: true, tamper: () => Buffer.from('0a05ff', 'hex') }],
    ]);
    const network = new InProcessNetwork(source, peers);
    const store = openStore('client');
    initLegacyBrackets(store, [bracket]);
    const sync = syncer(store, network);
    sync.start();
    await waitFor(() => network.penalties.length === 4);
    expect(network.penalties.map((penalty) => penalty.points)).toEqual([100, 100, 100, 100]);
    expect(new Set(network.penalties.map((penalty) => penalty.peerId))).toEqual(new Set(['empty', 'root', 'gap', 'garbage']));
    expect(store.blockIdAtHeight(258)).toBeUndefined();
    // An honest peer comes: the sync completes from it.
    peers.set('honest', { holds: true });
    await sync.idle();
    expect(store.blockIdAtHeight(7)).toEqual(chain[7]?.id);
    expect(network.announcements).toHaveLength(1);
    sync.stop();
  });

  it('waits while no peer holds the bracket or requests fail, and stops when asked', async () => {
    const peers = new Map<string, Peer>([['other', { holds: false }]]);
    const network = new InProcessNetwork(await servingStore(), peers);
    const store = openStore('client');
    initLegacyBrackets(store, [bracket]);
    const sync = syncer(store, network);
    sync.start();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(network.requests).toBe(0);
    peers.set('flaky', { holds: true, fails: true });
    await waitFor(() => network.requests >= 8);
    expect(network.penalties).toEqual([]);
    sync.stop();
    await sync.idle();
    expect(store.bracketInfo(snapshotBlockId)?.lastBlockHeight).toBe(259);
    expect(network.announcements).toEqual([]);
  });
});

describe('LegacyChainSync.stop', () => {
  it('returns at once, and an answer that arrives afterwards is not stored', async () => {
    const source = await servingStore();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const network = new InProcessNetwork(source, new Map([['slow', { holds: true }]]));
    const answer = network.requestLegacyBlocks.bind(network);
    let asked = false;
    network.requestLegacyBlocks = async (...args) => {
      asked = true;
      await gate;
      return answer(...args);
    };
    const store = openStore('client');
    initLegacyBrackets(store, [bracket]);
    const sync = syncer(store, network);
    sync.start();
    await waitFor(() => asked);
    sync.stop();
    release();
    await sync.idle();
    expect(store.blockIdAtHeight(258)).toBeUndefined();
    expect(store.bracketInfo(snapshotBlockId)?.lastBlockHeight).toBe(259);
    expect(network.announcements).toEqual([]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
