import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { PeerStore } from '../../../src/p2p/peer-store.js';

const dir = mkdtempSync(join(tmpdir(), 'basalt-peer-store-'));
const openEnv = () => open({ path: join(dir, 'env') });

describe('PeerStore on LMDB', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the bucket secret and the tried peers across a reopen', async () => {
    let env = openEnv();
    const first = new PeerStore(env);
    const secret = first.secret();
    expect(first.secret()).toBe(secret);
    first.saveTriedPeers([
      { ipAddress: '127.0.0.2', port: 7667 },
      { ipAddress: '10.0.0.1', port: 5000 },
    ]);
    await env.close();
    env = openEnv();
    const again = new PeerStore(env);
    expect(again.secret()).toBe(secret);
    expect(again.triedPeers()).toEqual([
      { ipAddress: '127.0.0.2', port: 7667 },
      { ipAddress: '10.0.0.1', port: 5000 },
    ]);
    await env.close();
  });

  it('skips stored entries that are not peer addresses, and replaces a damaged secret', async () => {
    const env = openEnv();
    const db = env.openDB<unknown, string>('network.meta', { encoding: 'json' });
    db.putSync('triedPeers', [{ ipAddress: '127.0.0.3', port: 1 }, { ipAddress: 7 }, null, 'x']);
    db.putSync('secret', 'not a number');
    const store = new PeerStore(env);
    expect(store.triedPeers()).toEqual([{ ipAddress: '127.0.0.3', port: 1 }]);
    const secret = store.secret();
    expect(Number.isInteger(secret)).toBe(true);
    expect(db.get('secret')).toBe(secret);
    await env.close();
  });
});
