/**
 * The legacy import against a real Lisk Core 3.0.3 database (the dev chain of the migration
 * fixtures, heights 0-309): every block read straight from its RocksDB, with the v3 key layout,
 * must verify and be served back byte for byte. Skipped (with a printed reason) when the migration
 * fixtures are not checked out beside the repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec } from '../../src/codec/index.js';
import {
  decodeLegacyBlock,
  importLegacyBlocks,
  legacyBracket,
  LegacyChainStore,
  legacyBlockJSON,
  legacyTransactionId,
  type V3BlockSource,
} from '../../src/legacy-chain/index.js';
import { legacyBlocksFromIdHandler } from '../../src/p2p/legacy-procedures.js';
import * as p2pSchemas from '../../src/p2p/schemas.js';
import { silentLogger } from '../../src/logger.js';
import { RpcDispatcher } from '../../src/rpc/dispatcher.js';
import { createLegacyEndpoints } from '../../src/rpc/endpoints/legacy-endpoints.js';
import { RpcRegistry } from '../../src/rpc/registry.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEV = join(ROOT, '..', 'shared', 'fixtures', 'migration', 'dev');
const TARBALL = join(DEV, 'lisk-core-3.0.3-devnet-h309.tgz');
const MIGRATED_GENESIS = join(DEV, 'h309-mainnet', 'genesis_block.json');
const present = existsSync(TARBALL) && existsSync(MIGRATED_GENESIS);
if (!present) console.log(`legacy v3 fixture import skipped: ${DEV} is absent`);

// Block 309 is the snapshot block: the v4 genesis block the real migrator made from this
// database follows it.
const SNAPSHOT_ID = present
  ? (JSON.parse(readFileSync(MIGRATED_GENESIS, 'utf8')) as { header: { previousBlockID: string } }).header.previousBlockID
  : '';

/** The part of the `rocksdb` binding (leveldown API, no bundled types) this test uses. */
interface Rocks {
  open(options: { readOnly: boolean; createIfMissing: boolean }, callback: (error?: Error) => void): void;
  get(key: Buffer, options: { asBuffer: boolean }, callback: (error: Error | undefined, value?: Buffer) => void): void;
  close(callback: () => void): void;
}
// Loaded through require so that the test compiles whether or not a declaration for it exists.
const rocksdb = createRequire(import.meta.url)('rocksdb') as (location: string) => Rocks;

/** Lisk Core 3 keys: "<prefix>:" followed by the bytes as latin1 characters, stored as UTF-8. */
const v3Key = (prefix: string, bytes: Buffer): Buffer => Buffer.from(`${prefix}:${bytes.toString('binary')}`);

const get = (db: Rocks, key: Buffer): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) =>
    db.get(key, { asBuffer: true }, (error, value) => {
      if (error) return /NotFound/i.test(error.message) ? resolve(undefined) : reject(error);
      resolve(value as Buffer);
    }),
  );

async function* v3Blocks(db: Rocks, from: number, to: number): AsyncGenerator<V3BlockSource> {
  for (let height = from; height <= to; height += 1) {
    const heightBytes = Buffer.alloc(4);
    heightBytes.writeUInt32BE(height);
    const id = await get(db, v3Key('blocks:height', heightBytes));
    if (!id) throw new Error(`no block at ${height}`);
    const header = await get(db, v3Key('blocks:id', id));
    if (!header) throw new Error(`no header for ${id.toString('hex')}`);
    const joined = (await get(db, v3Key('transactions:blockID', id))) ?? Buffer.alloc(0);
    const transactions: Buffer[] = [];
    for (let offset = 0; offset < joined.length; offset += 32) {
      const tx = await get(db, v3Key('transactions:id', joined.subarray(offset, offset + 32)));
      if (!tx) throw new Error('missing transaction');
      transactions.push(tx);
    }
    yield { id, height, header, transactions };
  }
}

describe.skipIf(!present)('legacy import of the real Lisk Core 3.0.3 dev chain (heights 0-309)', () => {
  let work: string;
  let v3: Rocks;
  let env: RootDatabase;
  let store: LegacyChainStore;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'basalt-legacy-v3-'));
    execFileSync('tar', ['xzf', TARBALL, '-C', work]);
    v3 = rocksdb(join(work, 'data', 'data', 'blockchain.db'));
    await new Promise<void>((resolve, reject) =>
      v3.open({ readOnly: true, createIfMissing: false }, (error) => (error ? reject(error) : resolve())),
    );
    env = open({ path: join(work, 'basalt.lmdb'), maxDbs: 8 });
    store = new LegacyChainStore(env);
  });

  afterAll(async () => {
    await env?.close();
    await new Promise<void>((resolve) => (v3 ? v3.close(() => resolve()) : resolve()));
    rmSync(work, { recursive: true, force: true });
  });

  it('imports all 310 blocks, every ID verified, and ends at the snapshot block', async () => {
    const bracket = legacyBracket({ id: Buffer.from(SNAPSHOT_ID, 'hex'), height: 309 }, 0);
    const result = await importLegacyBlocks(store, v3Blocks(v3, 0, 309), bracket, { batchSize: 64 });
    expect(result).toMatchObject({ imported: 310, skipped: 0, alreadyComplete: false });
    expect(result.transactions).toBeGreaterThanOrEqual(7);
    expect(store.bracketInfo(Buffer.from(SNAPSHOT_ID, 'hex'))).toEqual({ startHeight: 0, snapshotBlockHeight: 309, lastBlockHeight: 0 });
    expect(store.blockIdAtHeight(309)?.toString('hex')).toBe(SNAPSHOT_ID);
  });

  it('serves back the bytes v3 stored, and the transactions of every block', async () => {
    let transactions = 0;
    for await (const block of v3Blocks(v3, 0, 309)) {
      const stored = store.blockByHeight(block.height);
      expect(stored?.header.equals(block.header)).toBe(true);
      expect(stored?.payload.length).toBe(block.transactions.length);
      block.transactions.forEach((tx, index) => expect(stored?.payload[index]?.equals(tx)).toBe(true));
      transactions += block.transactions.length;
    }
    const top = store.encodedBlocksBetween(309, 309)[0] as Buffer;
    expect(decodeLegacyBlock(top).id.toString('hex')).toBe(SNAPSHOT_ID);
    const json = legacyBlockJSON(decodeLegacyBlock(top));
    expect(json.header).toMatchObject({ height: 309, id: SNAPSHOT_ID, version: 2 });
    expect(transactions).toBeGreaterThan(0);
  });

  it('serves the real blocks to peers and over RPC', async () => {
    const snapshot = Buffer.from(SNAPSHOT_ID, 'hex');
    const request = codec.encode(p2pSchemas.getLegacyBlocksFromIdRequestSchema, { blockID: snapshot, snapshotBlockID: snapshot });
    const answer = await legacyBlocksFromIdHandler(store)(request, { peerId: 'peer', penalize: () => {} });
    const { blocks } = codec.decode<{ blocks: Buffer[] }>(p2pSchemas.getBlocksFromIdResponseSchema, answer as Uint8Array);
    // Below 309: 308 down to 208 (lisk-sdk's 101).
    expect(blocks.map((bytes) => decodeLegacyBlock(bytes).id)).toEqual(
      Array.from({ length: 101 }, (_, i) => store.blockIdAtHeight(308 - i)),
    );

    const registry = new RpcRegistry();
    for (const method of createLegacyEndpoints({ store, brackets: [legacyBracket({ id: snapshot, height: 309 }, 0)] })) {
      registry.register(method);
    }
    const dispatcher = new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger });
    const call = async (method: string, params: object) =>
      JSON.parse((await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as string).result;
    // The chain's transactions (transfers, a delegate registration, votes) all decode as v3 transactions.
    let seen = 0;
    for (let height = 0; height <= 309; height += 1) {
      const block = store.blockByHeight(height);
      for (const tx of block?.payload ?? []) {
        const id = legacyTransactionId(tx).toString('hex');
        const json = await call('legacy_getTransactionByID', { id });
        expect(json).toMatchObject({ id, moduleID: expect.any(Number), nonce: expect.stringMatching(/^\d+$/) });
        expect([2, 5]).toContain(json.moduleID);
        seen += 1;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(7);
    const genesis = await call('legacy_getBlockByHeight', { height: 0 });
    expect(genesis.header).toMatchObject({ version: 0, height: 0, previousBlockID: '', signature: '' });
  });
});
