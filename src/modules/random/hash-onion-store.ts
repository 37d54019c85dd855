/**
 * Off-chain storage of each local validator's hash onion and of how far it has been used
 * (lisk-sdk random/stores/hash_onion.ts and used_hash_onions.ts, kept in lisk's module DB).
 * The random module reads and writes it through this interface; the node decides where it
 * lives (the persistent LMDB-backed store belongs to the running-node work). Nothing here is
 * part of the chain state: it never affects state roots.
 */
import type { HashOnionCheckpoints, UsedHashOnion } from './hash-onion-types.js';

export interface HashOnionStore {
  /** The onion registered for `address` (20 bytes), if any. */
  getHashOnion(address: Buffer): HashOnionCheckpoints | undefined;
  setHashOnion(address: Buffer, onion: HashOnionCheckpoints): void;
  /** Every registered onion, in ascending address order (lisk-sdk iterates its DB). */
  listHashOnions(): { address: Buffer; onion: HashOnionCheckpoints }[];
  /** The usage records of `address`'s onion, if any were saved. */
  getUsage(address: Buffer): UsedHashOnion[] | undefined;
  setUsage(address: Buffer, usage: readonly UsedHashOnion[]): void;
}

/**
 * A HashOnionStore in memory (tests, and a node until the persistent store exists). Stored and
 * returned values are copies, so callers cannot change the store by mutating what they hold.
 */
export class InMemoryHashOnionStore implements HashOnionStore {
  private readonly onions = new Map<string, HashOnionCheckpoints>();
  private readonly usages = new Map<string, UsedHashOnion[]>();

  getHashOnion(address: Buffer): HashOnionCheckpoints | undefined {
    const onion = this.onions.get(address.toString('hex'));
    return onion === undefined ? undefined : copyOnion(onion);
  }

  setHashOnion(address: Buffer, onion: HashOnionCheckpoints): void {
    this.onions.set(address.toString('hex'), copyOnion(onion));
  }

  listHashOnions(): { address: Buffer; onion: HashOnionCheckpoints }[] {
    // Same-length lowercase hex sorts like the bytes it encodes.
    return [...this.onions.keys()].sort().map((key) => ({
      address: Buffer.from(key, 'hex'),
      onion: copyOnion(this.onions.get(key) as HashOnionCheckpoints),
    }));
  }

  getUsage(address: Buffer): UsedHashOnion[] | undefined {
    return this.usages.get(address.toString('hex'))?.map(copyUsage);
  }

  setUsage(address: Buffer, usage: readonly UsedHashOnion[]): void {
    this.usages.set(address.toString('hex'), usage.map(copyUsage));
  }
}

function copyOnion(onion: HashOnionCheckpoints): HashOnionCheckpoints {
  return { count: onion.count, distance: onion.distance, hashes: onion.hashes.map((hash) => Buffer.from(hash)) };
}

function copyUsage(entry: UsedHashOnion): UsedHashOnion {
  return { count: entry.count, height: entry.height };
}
