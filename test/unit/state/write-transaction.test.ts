/**
 * writeTransaction (src/state/write-transaction.ts): an error of the write itself passes through
 * as it is, with nothing written; only a failed commit becomes a StoreWriteError (the disk-full
 * integration test, test/integration/disk-full.test.ts, makes a real one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../../../src/chain/lmdb-environment.js';
import { InvariantError, StoreWriteError } from '../../../src/errors.js';
import { writeTransaction } from '../../../src/state/write-transaction.js';

const dir = mkdtempSync(join(tmpdir(), 'basalt-write-transaction-'));
const env = open({ path: chainEnvPath(dir), ...CHAIN_ENV_OPTIONS });
const db = env.openDB<string, string>('values', { encoding: 'string' });
afterAll(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('writeTransaction', () => {
  it('commits and returns what the write returns', () => {
    const result = writeTransaction(env, () => {
      db.putSync('a', 'one');
      return 7;
    });
    expect(result).toBe(7);
    expect(db.get('a')).toBe('one');
  });

  it("lets the write's own error through unwrapped, with nothing written", () => {
    const thrown = new InvariantError('a bug in the write');
    expect(() =>
      writeTransaction(env, () => {
        db.putSync('b', 'two');
        throw thrown;
      }),
    ).toThrow(thrown);
    expect(db.get('b')).toBeUndefined();
  });

  it('StoreWriteError carries a stable code, and the cause in its message and as its cause', () => {
    const error = new StoreWriteError(new Error('File too large'));
    expect(error.code).toBe('ERR_STORE_WRITE');
    expect(error.message).toContain('File too large');
    expect((error.cause as Error).message).toBe('File too large');
  });
});
