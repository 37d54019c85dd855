/**
 * Basalt's migration against the real thing: the Lisk Core 3.0.3 devnet databases of the
 * migration oracle, migrated by lisk-migrator 2.0.1 and Lisk Core 4.0.3's genesis-block:create.
 * The genesis block must be the same bytes, its JSON the same, the assets the same text, and the
 * failures the migrator's messages.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec } from '../../src/codec/index.js';
import { MigrationError, migrateSnapshot, readPreviouslyForged, readV3Blocks } from '../../src/migration/index.js';
import { readTipHeight } from '../../src/migration/v3/v3-chain.js';
import { V3Database } from '../../src/migration/v3/v3-database.js';
import { rollbackOverlay } from '../../src/migration/v3/v3-rollback.js';
import { V3_PREFIX, v3Key, v3Range } from '../../src/migration/v3/v3-keys.js';
import {
  type V3Account,
  v3AccountSchema,
  v3BlockHeaderSchema,
  v3TransactionSchema,
  v3UnregisteredAddressesSchema,
  v3VoteWeightsSchema,
} from '../../src/migration/v3/v3-schemas.js';
import {
  directorySnapshot,
  extractV3DataDir,
  MIGRATION_ORACLE_DIR,
  migrationOraclePresent,
  oracleFile,
} from '../support/migration-fixtures.js';
import { v3Account } from '../support/v3-database-writer.js';

if (!migrationOraclePresent) {
  process.stdout.write(`migration oracle tests skipped: ${MIGRATION_ORACLE_DIR} does not exist\n`);
}

const sha256Bytes = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();
const sha256 = (bytes: Uint8Array): string => sha256Bytes(bytes).toString('hex');

describe.skipIf(!migrationOraclePresent)('migration of real Lisk Core 3 databases, as lisk-migrator 2.0.1', () => {
  let h309: ReturnType<typeof extractV3DataDir>;
  let h59: ReturnType<typeof extractV3DataDir>;
  beforeAll(() => {
    h309 = extractV3DataDir('h309');
    h59 = extractV3DataDir('h59');
  });
  afterAll(() => {
    rmSync(h309.root, { recursive: true, force: true });
    rmSync(h59.root, { recursive: true, force: true });
  });

  /** The MigrationError of migrating the h309 database at `snapshotHeight` as mainnet. */
  const h309Failure = (snapshotHeight: number, rollbackToSnapshot: boolean): Promise<MigrationError> =>
    migrateSnapshot({ dbPath: h309.blockchainDb, snapshotHeight, network: 'mainnet', rollbackToSnapshot }).then(
      () => {
        throw new Error(`the migration at ${snapshotHeight} succeeded`);
      },
      (caught: MigrationError) => caught,
    );

  for (const network of ['mainnet', 'testnet'] as const) {
    it(`reproduces h309-${network}: genesis block bytes, its JSON and genesis_assets.json`, async () => {
      const phases = new Set<string>();
      const result = await migrateSnapshot({
        dbPath: h309.blockchainDb,
        snapshotHeight: 309,
        network,
        onProgress: (progress) => phases.add(progress.phase),
      });
      expect(sha256(result.genesisBlock)).toBe(oracleFile(`h309-${network}/genesis_block.blob.SHA256`).toString('utf8'));
      expect(Buffer.from(result.genesisBlock).equals(oracleFile(`h309-${network}/genesis_block.blob`))).toBe(true);
      expect(JSON.parse(result.genesisBlockJson)).toEqual(JSON.parse(oracleFile(`h309-${network}/genesis_block.json`).toString('utf8')));
      expect(JSON.parse(result.genesisAssetsJson)).toEqual(JSON.parse(oracleFile(`h309-${network}/genesis_assets.json`).toString('utf8')));
      // Not required (key order is an artefact), but kept: the text is the migrator's, byte for byte.
      expect(result.genesisAssetsJson).toBe(oracleFile(`h309-${network}/genesis_assets.json`).toString('utf8'));
      expect(result.snapshotBlock).toEqual({
        id: Buffer.from('458e80a98ac3226c14ae28bae83fbb7a31111606fbc74a809ffc3b3c4d85839b', 'hex'),
        height: 309,
        timestamp: 1795639817,
      });
      expect(result.counts).toEqual({ blocks: 310, transactions: 8, accounts: 109, validators: 104, stakers: 104 });
      expect([...phases]).toEqual(['scan', 'assets', 'genesis']);
    });
  }

  it('gives the same genesis block with --page-size 7', async () => {
    const result = await migrateSnapshot({ dbPath: h309.blockchainDb, snapshotHeight: 309, network: 'mainnet', pageSize: 7 });
    expect(sha256(result.genesisBlock)).toBe(oracleFile('h309-mainnet/genesis_block.blob.SHA256').toString('utf8'));
  });

  const failures = [
    {
      snapshotHeight: 59,
      oracle: 'h59-s59-mainnet',
      code: 'MIGRATION_VOTE_WEIGHTS_MISSING',
      message: 'Delegate vote weights for round -1 (r-2) unavailable, cannot proceed.',
      assetsWritten: false,
    },
    {
      snapshotHeight: 309,
      oracle: 'h59-s309-mainnet',
      code: 'MIGRATION_KEY_MISSING',
      message: 'Specified key 626c6f636b733a6865696768743a00000135 does not exist',
      assetsWritten: true,
    },
  ];
  for (const { snapshotHeight, oracle, code, message, assetsWritten } of failures) {
    it(`fails on h59 at snapshot ${snapshotHeight} with the migrator's message (${oracle})`, async () => {
      // The migrator's console output, its line wrapping undone.
      const log = oracleFile(`${oracle}/migrator.log`)
        .toString('utf8')
        .replace(/\s*›\s+/g, ' ');
      const error = await migrateSnapshot({ dbPath: h59.blockchainDb, snapshotHeight, network: 'mainnet' }).catch((caught) => caught);
      expect(error).toBeInstanceOf(MigrationError);
      expect(error.code).toBe(code);
      expect(error.message).toBe(message);
      expect(log).toContain(`due to: ${message}`);
      // genesis_assets.json is written before the snapshot block is read, not before the vote weights.
      if (assetsWritten) {
        expect(JSON.parse(error.genesisAssetsJson)).toEqual(JSON.parse(oracleFile(`${oracle}/genesis_assets.json`).toString('utf8')));
      } else {
        expect(error.genesisAssetsJson).toBeUndefined();
      }
    });
  }

  it('refuses a snapshot height below the database tip, naming both heights', async () => {
    const error = await migrateSnapshot({ dbPath: h309.blockchainDb, snapshotHeight: 206, network: 'mainnet' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.code).toBe('MIGRATION_DB_AHEAD');
    expect(error.message).toContain('height 309');
    expect(error.message).toContain('snapshot height 206');
  });

  it('reads forger.db previouslyForged as the v3 node reported it (getForgingStatus at the snapshot block)', async () => {
    const status = JSON.parse(oracleFile('capture/forgingStatus.json').toString('utf8')) as {
      address: string;
      height: number;
      maxHeightPrevoted: number;
      maxHeightPreviouslyForged: number;
    }[];
    const stored = await readPreviouslyForged(h309.forgerDb);
    expect(stored.size).toBe(status.length);
    for (const { address, height, maxHeightPrevoted, maxHeightPreviouslyForged } of status) {
      expect(stored.get(address)).toEqual({ height, maxHeightPrevoted, maxHeightPreviouslyForged });
    }
  });

  it('reads the v3 history in height order, each block with its transactions (ids are the SHA-256 of the stored bytes)', async () => {
    let expectedHeight = 0;
    let transactions = 0;
    let previousID: Buffer | undefined;
    for await (const block of readV3Blocks(h309.blockchainDb, 0, 309)) {
      expect(block.height).toBe(expectedHeight);
      expect(sha256(block.header)).toBe(block.id.toString('hex'));
      // v3 header field 4 is previousBlockID: the chain links up.
      if (previousID !== undefined) expect(block.header.includes(previousID)).toBe(true);
      previousID = block.id;
      transactions += block.transactions.length;
      expectedHeight += 1;
    }
    expect(expectedHeight).toBe(310);
    expect(transactions).toBe(8);
  });

  it('the synthetic database writer writes what Lisk Core 3 wrote: every real key and value re-encodes to the same bytes', async () => {
    const db = await V3Database.open(h309.blockchainDb);
    try {
      const records = [
        { prefix: V3_PREFIX.accountsAddress, length: 20, schema: v3AccountSchema },
        { prefix: V3_PREFIX.blocksID, length: 32, schema: v3BlockHeaderSchema },
        { prefix: V3_PREFIX.transactionsID, length: 32, schema: v3TransactionSchema },
      ];
      for (const { prefix, length, schema } of records) {
        let count = 0;
        for await (const page of db.scanPages(v3Range(prefix, length), 50)) {
          for (const { key, value } of page) {
            const decoded = codec.decode<Record<string, unknown>>(schema, value);
            const suffix = schema === v3AccountSchema ? (decoded.address as Buffer) : sha256Bytes(value);
            expect(v3Key(prefix, suffix).equals(key)).toBe(true);
            const rewritten = schema === v3AccountSchema ? v3Account(decoded as unknown as V3Account) : decoded;
            expect(codec.encode(schema, rewritten).equals(value)).toBe(true);
            count += 1;
          }
        }
        expect(count).toBeGreaterThan(0);
      }
      for (const { key, schema } of [
        { key: V3_PREFIX.unregisteredAddresses, schema: v3UnregisteredAddressesSchema },
        { key: V3_PREFIX.delegateVoteWeights, schema: v3VoteWeightsSchema },
      ]) {
        const value = (await db.get(v3Key(key))) as Buffer;
        expect(codec.encode(schema, codec.decode(schema, value)).equals(value)).toBe(true);
      }
    } finally {
      await db.close();
    }
  });

  it('rolled back from 309 to 59 with its own state diffs, the h309 database reads exactly as the real h59 database', async () => {
    const everything = { gte: Buffer.alloc(1), lte: Buffer.alloc(64, 0xff) };
    const entries = async (db: V3Database): Promise<Map<string, string>> => {
      const read = new Map<string, string>();
      await db.forEach(everything, 100, ({ key, value }) => read.set(key.toString('hex'), value.toString('hex')));
      return read;
    };
    const rolledBack = await V3Database.open(h309.blockchainDb);
    const real = await V3Database.open(h59.blockchainDb);
    try {
      rolledBack.setOverlay(await rollbackOverlay(rolledBack, 309, 59));
      expect(await readTipHeight(rolledBack)).toBe(59);
      const expected = await entries(real);
      expect(expected.size).toBeGreaterThan(300);
      // Every key: accounts, chain and consensus state, blocks, transactions, the remaining diffs.
      expect(await entries(rolledBack)).toEqual(expected);
    } finally {
      await rolledBack.close();
      await real.close();
    }
    // So the migration of the rolled-back view is the migrator's run on the real h59 database.
    const error = await h309Failure(59, true);
    expect(error.message).toBe('Delegate vote weights for round -1 (r-2) unavailable, cannot proceed.');
  });

  it('at snapshot 206 below the tip: refused by default; rolled back on request, where round 0 has no vote weights', async () => {
    const refused = await h309Failure(206, false);
    expect(refused.code).toBe('MIGRATION_DB_AHEAD');
    const rolledBack = await h309Failure(206, true);
    expect(rolledBack.code).toBe('MIGRATION_VOTE_WEIGHTS_MISSING');
    expect(rolledBack.message).toBe('Delegate vote weights for round 0 (r-2) unavailable, cannot proceed.');
  });

  it('rolled back to 258, migrates the chain as it was at 258; at its own tip the rollback changes nothing', async () => {
    const at258 = await migrateSnapshot({
      dbPath: h309.blockchainDb,
      snapshotHeight: 258,
      network: 'mainnet',
      rollbackToSnapshot: true,
      pageSize: 9,
    });
    expect(at258.snapshotBlock.height).toBe(258);
    expect(at258.counts.blocks).toBe(259);
    const header = JSON.parse(at258.genesisBlockJson).header;
    expect(header.height).toBe(259);
    expect(header.timestamp).toBe(at258.snapshotBlock.timestamp + 3600);
    expect(header.previousBlockID).toBe(at258.snapshotBlock.id.toString('hex'));
    const at309 = await migrateSnapshot({ dbPath: h309.blockchainDb, snapshotHeight: 309, network: 'mainnet', rollbackToSnapshot: true });
    expect(sha256(at309.genesisBlock)).toBe(oracleFile('h309-mainnet/genesis_block.blob.SHA256').toString('utf8'));
  });

  it('changes no file of the v3 data directory (names, sizes, mtimes, bytes)', async () => {
    const before = directorySnapshot(h309.root);
    await migrateSnapshot({ dbPath: h309.blockchainDb, snapshotHeight: 309, network: 'testnet', pageSize: 3 });
    await migrateSnapshot({ dbPath: h309.blockchainDb, snapshotHeight: 258, network: 'mainnet', rollbackToSnapshot: true });
    await readPreviouslyForged(h309.forgerDb);
    for await (const _block of readV3Blocks(h309.blockchainDb, 300, 309));
    expect(directorySnapshot(h309.root)).toEqual(before);
  });
});
