/**
 * The map size in CHAIN_ENV_OPTIONS is a starting reservation, not a cap (src/chain/lmdb-environment.ts):
 * a store grows past the map it was opened with, and read-only openers with a smaller or larger map
 * than the writer's read all of it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../../../src/chain/lmdb-environment.js';

const dir = mkdtempSync(join(tmpdir(), 'basalt-lmdb-map-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LMDB map size', () => {
  it('grows past the map it was opened with, and any reader maps the whole file', async () => {
    const path = chainEnvPath(dir);
    const initialMap = 256 * 1024;
    const writer = open({ path, ...CHAIN_ENV_OPTIONS, mapSize: initialMap });
    const db = writer.openDB<Buffer, number>('values', { keyEncoding: 'uint32', encoding: 'binary' });
    const value = Buffer.alloc(1000, 7);
    for (let batch = 0; batch < 20; batch += 1) {
      writer.transactionSync(() => {
        for (let i = 0; i < 100; i += 1) db.putSync(batch * 100 + i, value);
      });
    }
    await writer.close();
    expect(statSync(path).size).toBeGreaterThan(4 * initialMap);

    for (const mapSize of [64 * 1024, CHAIN_ENV_OPTIONS.mapSize]) {
      const reader = open({ path, ...CHAIN_ENV_OPTIONS, mapSize, readOnly: true });
      try {
        const values = reader.openDB<Buffer, number>('values', { keyEncoding: 'uint32', encoding: 'binary' });
        expect(values.getKeysCount()).toBe(2000);
        expect(values.getBinary(1999)?.equals(value)).toBe(true);
      } finally {
        await reader.close();
      }
    }
  });
});
