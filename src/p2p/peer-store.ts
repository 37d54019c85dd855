import { randomBytes } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import type { PeerAddress } from './peer-address.js';

const SECRET_KEY = 'secret';
const TRIED_PEERS_KEY = 'triedPeers';
/** lisk-sdk saves the tried peers every 10 minutes (`framework/src/engine/network/network.ts`). */
export const SAVE_PEERS_INTERVAL_MS = 10 * 60 * 1000;

/**
 * What the P2P network keeps across restarts, in the node's LMDB environment (lisk-sdk keeps the
 * same two things in its node database as `network:nodeSecret` and `network:triedPeersList`):
 * the secret that keys the peer book's buckets, so a peer lands in the same bucket after a
 * restart, and the tried peers, dialled again first.
 */
export class PeerStore {
  private readonly db: Database<unknown, string>;

  constructor(env: RootDatabase) {
    this.db = env.openDB<unknown, string>('network.meta', { encoding: 'json' });
  }

  /** The stored secret, created (32 random bits) and stored on first use. */
  secret(): number {
    const stored = this.db.get(SECRET_KEY);
    if (Number.isInteger(stored) && (stored as number) >= 0 && (stored as number) <= 0xffff_ffff) return stored as number;
    const secret = randomBytes(4).readUInt32BE(0);
    this.db.putSync(SECRET_KEY, secret);
    return secret;
  }

  /** The tried peers of the last run; entries that are not `{ipAddress, port}` are skipped. */
  triedPeers(): PeerAddress[] {
    const stored = this.db.get(TRIED_PEERS_KEY);
    if (!Array.isArray(stored)) return [];
    return stored
      .filter((entry): entry is PeerAddress => typeof entry?.ipAddress === 'string' && Number.isInteger(entry?.port))
      .map(({ ipAddress, port }) => ({ ipAddress, port }));
  }

  saveTriedPeers(peers: readonly PeerAddress[]): void {
    this.db.putSync(
      TRIED_PEERS_KEY,
      peers.map(({ ipAddress, port }) => ({ ipAddress, port })),
    );
  }
}
