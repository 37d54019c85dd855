/**
 * getLegacyBlocksFromId over a legacy chain store holding a synthetic v3 chain (heights 0-249):
 * the answer bytes, the heights lisk-sdk's arithmetic picks, and what each bad request costs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import {
  decodeLegacyBlock,
  importLegacyBlocks,
  legacyBracket,
  LegacyChainStore,
  type V3BlockSource,
} from '../../../src/legacy-chain/index.js';
import type { P2pCallContext } from '../../../src/p2p/handlers.js';
import { legacyBlocksFromIdHandler } from '../../../src/p2p/legacy-procedures.js';
import * as schemas from '../../../src/p2p/schemas.js';
import { buildV3Chain } from '../../support/v3-legacy-chain.js';

const chain = buildV3Chain({ length: 250, transactionsAt: (height) => (height % 40 === 0 ? 2 : 0) });
const top = chain.at(-1) as V3BlockSource;
const at = (height: number): V3BlockSource => chain[height] as V3BlockSource;

let dir: string;
let env: RootDatabase;
let handler: ReturnType<typeof legacyBlocksFromIdHandler>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'basalt-legacy-p2p-'));
  env = open({ path: join(dir, 'basalt.lmdb'), maxDbs: 8 });
  const store = new LegacyChainStore(env);
  await importLegacyBlocks(store, chain, legacyBracket({ id: top.id, height: 249 }, 0));
  handler = legacyBlocksFromIdHandler(store);
});

afterAll(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ask(data: Buffer | undefined): Promise<{ answer?: Buffer; error?: string; penalties: number[] }> {
  const penalties: number[] = [];
  const context: P2pCallContext = { peerId: '127.0.0.9:1', penalize: (points) => penalties.push(points) };
  try {
    return { answer: Buffer.from((await handler(data, context)) as Uint8Array), penalties };
  } catch (error) {
    return { error: (error as Error).message, penalties };
  }
}

const request = (blockID: Buffer, snapshotBlockID: Buffer = top.id): Buffer =>
  codec.encode(schemas.getLegacyBlocksFromIdRequestSchema, { blockID, snapshotBlockID });

/** The answer lisk-sdk gives for heights `high` down to `low`, built from the source blocks. */
function expectedAnswer(high: number, low: number): Buffer {
  const blocks: Buffer[] = [];
  for (let height = high; height >= low; height -= 1) {
    // `{header #1, payload #2}`, written out by hand: header bytes, then each transaction.
    const block = at(height);
    const parts = [Buffer.from([0x0a]), varint(block.header.length), block.header];
    for (const tx of block.transactions) parts.push(Buffer.from([0x12]), varint(tx.length), tx);
    blocks.push(Buffer.concat(parts));
  }
  return codec.encode(schemas.getBlocksFromIdResponseSchema, { blocks });
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

const heights = (answer: Buffer | undefined): number[] =>
  codec.decode<{ blocks: Buffer[] }>(schemas.getBlocksFromIdResponseSchema, answer as Buffer).blocks.map((bytes) => {
    const block = decodeLegacyBlock(bytes);
    return chain.findIndex((entry) => entry.id.equals(block.id));
  });

describe('getLegacyBlocksFromId', () => {
  it('from the snapshot block: the 101 blocks below it, highest first, byte for byte', async () => {
    const { answer, penalties } = await ask(request(top.id));
    expect(answer).toEqual(expectedAnswer(248, 148));
    expect(heights(answer)).toHaveLength(101);
    expect(penalties).toEqual([]);
  });

  it('from a stored block: the blocks below it, down to the bracket start at most', async () => {
    expect(heights((await ask(request(at(120).id))).answer)).toEqual(Array.from({ length: 101 }, (_, i) => 119 - i));
    expect((await ask(request(at(100).id))).answer).toEqual(expectedAnswer(99, 0));
    expect((await ask(request(at(50).id))).answer).toEqual(expectedAnswer(49, 0));
    expect((await ask(request(at(1).id))).answer).toEqual(expectedAnswer(0, 0));
  });

  it('answers an empty list for an unknown block, and an error below height 0, without penalty', async () => {
    const unknown = await ask(request(Buffer.alloc(32, 5)));
    expect(unknown.answer).toEqual(codec.encode(schemas.getBlocksFromIdResponseSchema, { blocks: [] }));
    expect(unknown.penalties).toEqual([]);
    const below = await ask(request(at(0).id));
    expect(below.error).toContain('out of range');
    expect(below.penalties).toEqual([]);
  });

  it('charges 100 for an unknown bracket, an undecodable or an invalid request', async () => {
    const other = Buffer.alloc(32, 0x33);
    expect(await ask(request(top.id, other))).toEqual({
      error: `Specified key 02${other.toString('hex')} does not exist`,
      penalties: [100],
    });
    expect((await ask(Buffer.from('0a05', 'hex'))).penalties).toEqual([100]);
    expect((await ask(undefined)).penalties).toEqual([100]);
    const short = codec.encode(schemas.getLegacyBlocksFromIdRequestSchema, { blockID: Buffer.alloc(31), snapshotBlockID: top.id });
    expect((await ask(short)).penalties).toEqual([100]);
  });
});
