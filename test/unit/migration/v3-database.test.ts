/**
 * Reading a Lisk Core 3 RocksDB database: the key encoding, read-only opening and its failures
 * (each with a stable code), paged scans that give the same result for any page size, the tip,
 * the block history, forger.db, and a directory left exactly as it was.
 */
import { appendFileSync, mkdirSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../src/crypto/index.js';
import { MigrationError, migrateSnapshot, readPreviouslyForged, readV3Blocks } from '../../../src/migration/index.js';
import { V3Database } from '../../../src/migration/v3/v3-database.js';
import { readTipHeight, scanAccounts, scanBlockGeneratorKeys, scanTransactionSenderKeys } from '../../../src/migration/v3/v3-chain.js';
import { type V3Transaction, v3TransactionSchema } from '../../../src/migration/v3/v3-schemas.js';
import { codec } from '../../../src/codec/index.js';
import { heightBytes, logicalV3Key, V3_PREFIX, v3Key, v3Range } from '../../../src/migration/v3/v3-keys.js';
import { directorySnapshot } from '../../support/migration-fixtures.js';
import { V3DatabaseWriter, writeSyntheticV3Database } from '../../support/v3-database-writer.js';
import { scratchPath } from './synthetic-v3.js';

async function expectMigrationError(promise: Promise<unknown>, code: string, message?: RegExp): Promise<MigrationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MigrationError);
  expect((error as MigrationError).code).toBe(code);
  if (message !== undefined) expect((error as MigrationError).message).toMatch(message);
  return error as MigrationError;
}

describe('Lisk Core 3 key encoding', () => {
  it('writes each byte of the suffix as its latin1 character in UTF-8, as Lisk Core 3 stored keys', () => {
    expect(v3Key('blocks:height:', heightBytes(0x0135)).toString('hex')).toBe(
      Buffer.from('blocks:height:\x00\x00\x01\x35', 'latin1').toString('hex'),
    );
    // 0x80 and 0xff are two bytes on disk each (c2 80, c3 bf).
    expect(v3Key('x:', Buffer.from([0x7f, 0x80, 0xff])).toString('hex')).toBe(`${Buffer.from('x:').toString('hex')}7fc280c3bf`);
    expect(logicalV3Key(v3Key('x:', Buffer.from([0x7f, 0x80, 0xff]))).toString('hex')).toBe(`${Buffer.from('x:').toString('hex')}7f80ff`);
  });

  it('keeps byte order: the range bounds enclose every encoded suffix', () => {
    const { gte, lte } = v3Range('accounts:address:', 20);
    for (const fill of [0x00, 0x7f, 0x80, 0xc3, 0xfe, 0xff]) {
      const key = v3Key('accounts:address:', Buffer.alloc(20, fill));
      expect(Buffer.compare(gte, key)).toBeLessThanOrEqual(0);
      expect(Buffer.compare(key, lte)).toBeLessThanOrEqual(0);
    }
    expect(Buffer.compare(v3Key('p:', Buffer.from([0x7f])), v3Key('p:', Buffer.from([0x80])))).toBe(-1);
  });
});

describe('opening a Lisk Core 3 database', () => {
  it('refuses a missing directory, a plain file and a directory that is no RocksDB database', async () => {
    await expectMigrationError(V3Database.open(scratchPath('absent')), 'MIGRATION_DB_MISSING', /does not exist/);
    const file = scratchPath('file');
    writeFileSync(file, 'not a database');
    await expectMigrationError(V3Database.open(file), 'MIGRATION_DB_MISSING');
    const empty = scratchPath('empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'hello');
    await expectMigrationError(V3Database.open(empty), 'MIGRATION_DB_NOT_ROCKSDB', /not a RocksDB database/);
    expect(readdirSync(empty)).toEqual(['notes.txt']);
  });

  it('refuses a RocksDB database without blocks (a foreign database)', async () => {
    const path = scratchPath('foreign');
    const writer = await V3DatabaseWriter.create(path);
    await writer.put('something:else:', Buffer.from('01', 'hex'), Buffer.from('value'));
    await writer.close();
    const db = await V3Database.open(path);
    try {
      await expectMigrationError(readTipHeight(db), 'MIGRATION_DB_FOREIGN', /not a Lisk Core v3 blockchain database/);
    } finally {
      await db.close();
    }
    await expectMigrationError(migrateSnapshot({ dbPath: path, snapshotHeight: 309, network: 'mainnet' }), 'MIGRATION_DB_FOREIGN');
  });

  it('refuses a database whose files are truncated or corrupt', async () => {
    const summary = { blocks: 50, accounts: 120, transactions: 30 };
    const truncated = scratchPath('truncated');
    await writeSyntheticV3Database(truncated, summary);
    const manifest = readdirSync(truncated).find((name) => name.startsWith('MANIFEST-')) as string;
    truncateSync(join(truncated, manifest), 10);
    await expectMigrationError(V3Database.open(truncated), 'MIGRATION_DB_CORRUPT', /Cannot open the Lisk Core v3 database/);

    const badCurrent = scratchPath('bad-current');
    await writeSyntheticV3Database(badCurrent, summary);
    writeFileSync(join(badCurrent, 'CURRENT'), 'MANIFEST-999999\n');
    await expectMigrationError(V3Database.open(badCurrent), 'MIGRATION_DB_CORRUPT');
  });

  it('reports an account, a header or a transaction that does not decode as corruption, naming the key', async () => {
    const damaged = [
      { prefix: V3_PREFIX.accountsAddress, suffix: Buffer.alloc(20, 0x42) },
      { prefix: V3_PREFIX.blocksID, suffix: Buffer.alloc(32, 0x42) },
      { prefix: V3_PREFIX.transactionsID, suffix: Buffer.alloc(32, 0x42) },
    ];
    for (const { prefix, suffix } of damaged) {
      const path = scratchPath('bad-value');
      const { tipHeight } = await writeSyntheticV3Database(path, { blocks: 320, accounts: 110, transactions: 5 });
      const writer = await V3DatabaseWriter.open(path);
      await writer.put(prefix, suffix, Buffer.from([0x08, 0xff]));
      await writer.close();
      const error = await expectMigrationError(
        migrateSnapshot({ dbPath: path, snapshotHeight: tipHeight, network: 'mainnet' }),
        'MIGRATION_DB_CORRUPT',
        /does not decode/,
      );
      expect(error.message).toContain(Buffer.concat([Buffer.from(prefix), suffix]).toString('hex'));
    }
  });

  it('changes nothing in the directory: same files, sizes, mtimes and bytes after every read', async () => {
    const path = scratchPath('untouched');
    const { tipHeight } = await writeSyntheticV3Database(path, { blocks: 230, accounts: 150, transactions: 60 });
    appendFileSync(join(path, 'LOCK'), '');
    const before = directorySnapshot(path);
    await migrateSnapshot({ dbPath: path, snapshotHeight: tipHeight, network: 'mainnet', pageSize: 4 });
    for await (const _block of readV3Blocks(path, 0, tipHeight));
    expect(directorySnapshot(path)).toEqual(before);
  });
});

describe('scans of a Lisk Core 3 database', () => {
  it('give the same entries for any page size, and the tip height', async () => {
    const path = scratchPath('paged');
    const { tipHeight } = await writeSyntheticV3Database(path, { blocks: 40, accounts: 130, transactions: 45 });
    const db = await V3Database.open(path);
    try {
      expect(await readTipHeight(db)).toBe(39);
      expect(tipHeight).toBe(39);
      const collect = async (pageSize: number) => {
        const accounts: string[] = [];
        await scanAccounts(db, pageSize, (account) => accounts.push(account.address.toString('hex')));
        const transactions: number[] = [];
        await db.forEach(v3Range(V3_PREFIX.transactionsID, 32), pageSize, ({ value }) => {
          transactions.push(codec.decode<V3Transaction>(v3TransactionSchema, value).asset.readUInt32BE(0));
        });
        const senders: string[] = [];
        await scanTransactionSenderKeys(db, pageSize, (key) => senders.push(key.toString('hex')));
        const generators: string[] = [];
        await scanBlockGeneratorKeys(db, pageSize, (key) => generators.push(key.toString('hex')));
        return { accounts, transactions, senders, generators };
      };
      const reference = await collect(100_000);
      expect(reference.accounts).toHaveLength(130);
      expect(reference.transactions.sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, index) => index));
      expect(reference.senders).toHaveLength(45);
      expect(reference.generators).toHaveLength(40);
      for (const pageSize of [1, 2, 7, 129, 130, 131]) expect(await collect(pageSize)).toEqual(await collect(100_000));
    } finally {
      await db.close();
    }
  });

  it('migrate to the same genesis block for any page size', async () => {
    const path = scratchPath('paged-migration');
    const { tipHeight } = await writeSyntheticV3Database(path, { blocks: 320, accounts: 140, transactions: 70 });
    const reference = await migrateSnapshot({ dbPath: path, snapshotHeight: tipHeight, network: 'testnet' });
    for (const pageSize of [1, 7]) {
      const paged = await migrateSnapshot({ dbPath: path, snapshotHeight: tipHeight, network: 'testnet', pageSize });
      expect(Buffer.from(paged.genesisBlock).equals(Buffer.from(reference.genesisBlock))).toBe(true);
      expect(paged.genesisAssetsJson).toBe(reference.genesisAssetsJson);
    }
    expect(reference.counts).toEqual({ blocks: 320, transactions: 70, accounts: 140, validators: 103, stakers: 140 });
  });

  it('reads the history in height order with each block transactions in block order', async () => {
    const path = scratchPath('history');
    await writeSyntheticV3Database(path, { blocks: 30, accounts: 110, transactions: 40 });
    const db = await V3Database.open(path);
    const stored = new Map<string, Buffer>();
    try {
      for await (const page of db.scanPages(v3Range(V3_PREFIX.transactionsID, 32), 1000)) {
        for (const { key, value } of page) stored.set(logicalV3Key(key).subarray(V3_PREFIX.transactionsID.length).toString('hex'), value);
      }
    } finally {
      await db.close();
    }
    const heights: number[] = [];
    const order: number[] = [];
    for await (const block of readV3Blocks(path, 5, 29)) {
      heights.push(block.height);
      expect(sha256(block.header).equals(block.id)).toBe(true);
      for (const transaction of block.transactions) {
        expect(stored.get(sha256(transaction).toString('hex'))?.equals(transaction)).toBe(true);
        // The synthetic transactions carry their sequence number in the asset: block order is that order.
        order.push(transaction.readUInt32BE(transaction.length - 64 - 2 - 4));
      }
    }
    expect(heights).toEqual(Array.from({ length: 25 }, (_, index) => index + 5));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    await expectMigrationError(
      (async () => {
        for await (const _block of readV3Blocks(path, 25, 40));
      })(),
      'MIGRATION_DB_CORRUPT',
      /has no block at height 30/,
    );
  });

  it('reads forger.db previouslyForged keyed by hex address, and an empty forger.db as no entries', async () => {
    const path = scratchPath('forger.db');
    const writer = await V3DatabaseWriter.create(path);
    const entries = [
      { generatorAddress: Buffer.alloc(20, 1), height: 300, maxHeightPrevoted: 250, maxHeightPreviouslyForged: 197 },
      { generatorAddress: Buffer.alloc(20, 2), height: 301, maxHeightPrevoted: 0, maxHeightPreviouslyForged: 0 },
    ];
    await writer.putPreviouslyForged(entries);
    await writer.close();
    expect(await readPreviouslyForged(path)).toEqual(
      new Map([
        ['01'.repeat(20), { height: 300, maxHeightPrevoted: 250, maxHeightPreviouslyForged: 197 }],
        ['02'.repeat(20), { height: 301, maxHeightPrevoted: 0, maxHeightPreviouslyForged: 0 }],
      ]),
    );
    const empty = scratchPath('forger-empty.db');
    await (await V3DatabaseWriter.create(empty)).close();
    expect((await readPreviouslyForged(empty)).size).toBe(0);
    await expectMigrationError(readPreviouslyForged(scratchPath('no-forger.db')), 'MIGRATION_DB_MISSING');
  });
});

describe('the snapshot height against the database', () => {
  it('refuses a database whose tip is above the snapshot height, naming both heights', async () => {
    const path = scratchPath('ahead');
    await writeSyntheticV3Database(path, { blocks: 330, accounts: 110, transactions: 10 });
    const error = await expectMigrationError(
      migrateSnapshot({ dbPath: path, snapshotHeight: 309, network: 'mainnet' }),
      'MIGRATION_DB_AHEAD',
    );
    expect(error.message).toContain('ends at height 329, above the snapshot height 309');
  });

  it('checks its options', async () => {
    const path = scratchPath('options');
    for (const options of [
      { snapshotHeight: -1, network: 'mainnet' },
      { snapshotHeight: 1.5, network: 'mainnet' },
      { snapshotHeight: 309, network: 'devnet' },
      { snapshotHeight: 309, network: 'mainnet', pageSize: 0 },
    ]) {
      await expectMigrationError(
        migrateSnapshot({ dbPath: path, ...options } as Parameters<typeof migrateSnapshot>[0]),
        'MIGRATION_INVALID_OPTIONS',
      );
    }
  });
});

describe('state keys every Lisk Core 3 database has', () => {
  it('fails as lisk-migrator does (Specified key <hex> does not exist) without the unregistered addresses or the vote weights', async () => {
    const missing = [
      { name: 'unregistered', key: '636861696e3a756e72656769737465726564416464726573736573' },
      { name: 'vote-weights', key: '636861696e3a64706f733a64656c6567617465566f746557656967687473' },
    ];
    for (const { name, key } of missing) {
      const path = scratchPath(`missing-${name}`);
      const writer = await V3DatabaseWriter.create(path);
      await writer.putBlock({ height: 0, generatorPublicKey: Buffer.alloc(32, 1) });
      if (name !== 'unregistered') await writer.putUnregisteredAddresses([]);
      if (name !== 'vote-weights') await writer.putVoteWeights([]);
      await writer.close();
      const error = await expectMigrationError(
        migrateSnapshot({ dbPath: path, snapshotHeight: 0, network: 'mainnet' }),
        'MIGRATION_KEY_MISSING',
      );
      expect(error.message).toBe(`Specified key ${key} does not exist`);
    }
  });
});
