/**
 * Reading a v3 database through an overlay (the rollback to a snapshot height): removed,
 * replaced and restored entries in key order for any page size, and a rollback that needs a
 * state diff the database does not have.
 */
import { describe, expect, it } from 'vitest';
import { MigrationError, migrateSnapshot } from '../../../src/migration/index.js';
import { V3Database } from '../../../src/migration/v3/v3-database.js';
import { v3Key } from '../../../src/migration/v3/v3-keys.js';
import { V3DatabaseWriter, writeSyntheticV3Database } from '../../support/v3-database-writer.js';
import { scratchPath } from './synthetic-v3.js';

const key = (suffix: number): Buffer => v3Key('k:', Buffer.from([suffix]));
const range = { gte: key(0x00), lte: key(0xff) };

describe('a v3 database seen through an overlay', () => {
  it('skips removed entries, swaps replaced values, and visits restored entries where they sort, for any page size', async () => {
    const path = scratchPath('overlay');
    const writer = await V3DatabaseWriter.create(path);
    for (const suffix of [0x10, 0x20, 0x30, 0x40, 0x90, 0xc0]) await writer.put('k:', Buffer.from([suffix]), Buffer.from([suffix]));
    await writer.close();
    const db = await V3Database.open(path);
    try {
      db.setOverlay(
        new Map([
          [key(0x05).toString('hex'), Buffer.from('restored-first')],
          [key(0x20).toString('hex'), null],
          [key(0x30).toString('hex'), Buffer.from('replaced')],
          [key(0x35).toString('hex'), Buffer.from('restored-middle')],
          [key(0xc0).toString('hex'), null],
          [key(0xf0).toString('hex'), Buffer.from('restored-last')],
          [key(0x99).toString('hex'), null],
        ]),
      );
      const expected = [
        [0x05, 'restored-first'],
        [0x10, '\x10'],
        [0x30, 'replaced'],
        [0x35, 'restored-middle'],
        [0x40, '@'],
        [0x90, '\x90'],
        [0xf0, 'restored-last'],
      ].map(([suffix, value]) => [key(suffix as number).toString('hex'), Buffer.from(value as string, 'latin1').toString('hex')]);
      for (const pageSize of [1, 2, 3, 100]) {
        const seen: string[][] = [];
        const count = await db.forEach(range, pageSize, ({ key: stored, value }) =>
          seen.push([stored.toString('hex'), value.toString('hex')]),
        );
        expect(seen).toEqual(expected);
        expect(count).toBe(expected.length);
      }
      expect(await db.get(key(0x20))).toBeUndefined();
      expect(await db.get(key(0x35))).toEqual(Buffer.from('restored-middle'));
      expect(await db.get(key(0x40))).toEqual(Buffer.from([0x40]));
      expect((await db.first(range, true))?.key).toEqual(key(0xf0));
      expect((await db.first(range))?.key).toEqual(key(0x05));
    } finally {
      await db.close();
    }
  });

  it('refuses a rollback to the snapshot when a block above it has no state diff', async () => {
    const path = scratchPath('no-diffs');
    await writeSyntheticV3Database(path, { blocks: 330, accounts: 110, transactions: 10 });
    const error = await migrateSnapshot({ dbPath: path, snapshotHeight: 309, network: 'mainnet', rollbackToSnapshot: true }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).code).toBe('MIGRATION_ROLLBACK_UNAVAILABLE');
    expect((error as MigrationError).message).toContain('no state diff for height 329');
  });
});
