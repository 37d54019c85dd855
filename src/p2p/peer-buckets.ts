/**
 * The bucketed lists of the peer book (LIP 0004; `elements/lisk-p2p/src/peer_book/base_list.ts`,
 * `new_list.ts`, `tried_list.ts`, `utils/network.ts` getBucketId). An address's bucket comes
 * from a hash keyed by the node's secret, so an attacker cannot predict which entries its
 * addresses would push out:
 *
 * - new list (128 × 32): bucket from the source's /16 and a k in 0..15 derived from the source
 *   and target /16s; a full bucket drops an entry older than 24 h, else a random one;
 * - tried list (64 × 32): bucket from the target's /16 and a k in 0..3 derived from the whole
 *   address; a full bucket drops a random entry.
 *
 * Loopback/0.0.0.0 and private addresses each share one bucket per list. H = sha256, first four
 * bytes big-endian. The exact bucket numbers are local policy, never seen on the wire.
 */
import { sha256 } from '../crypto/index.js';
import { NEW_PEER_EXPIRY } from './constants.js';
import { ipv4Octets, NetworkClass, networkClassOf } from './peer-address.js';

export type ListKind = 'new' | 'tried';

export interface BookEntry {
  peerId: string;
  ipAddress: string;
  port: number;
  /** For new entries: the IP of the peer whose getPeers answer named this one. */
  sourceAddress?: string;
  /** False for peers that connected to us with advertiseAddress=false: never handed out. */
  advertiseAddress: boolean;
  dateAdded: number;
  failures: number;
}

function hashNumber(...parts: number[][]): number {
  const bytes = Buffer.from(parts.flat());
  return sha256(bytes).readUInt32BE(0);
}

const u32 = (value: number): number[] => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];

/** The netgroup of an address (`utils/network.ts` getNetgroup): a keyed hash of its class and /16. */
export function netgroupOf(ipAddress: string, secret: number): number {
  const [a, b] = ipv4Octets(ipAddress);
  return hashNumber(u32(secret), [networkClassOf(ipAddress), a!, b!]);
}

/** The bucket of `target` in a list of `bucketCount` buckets. */
export function bucketOf(kind: ListKind, secret: number, bucketCount: number, target: string, source?: string): number {
  const cls = networkClassOf(target);
  const prefix = [...u32(secret), cls];
  if (cls !== NetworkClass.Public) return hashNumber(prefix) % bucketCount;
  const [a, b] = ipv4Octets(target);
  if (kind === 'new' && source !== undefined) {
    const [sa, sb] = ipv4Octets(source);
    const k = hashNumber(prefix, [sa!, sb!, a!, b!]) % 16;
    return hashNumber(prefix, [sa!, sb!], u32(k)) % bucketCount;
  }
  const k = hashNumber(prefix, ipv4Octets(target)) % (kind === 'new' ? 16 : 4);
  return hashNumber(prefix, [a!, b!], u32(k)) % bucketCount;
}

export class BucketList {
  private readonly buckets: Map<string, BookEntry>[];
  private readonly byId = new Map<string, { entry: BookEntry; bucket: number }>();

  constructor(
    readonly kind: ListKind,
    private readonly secret: number,
    bucketCount: number,
    private readonly bucketSize: number,
  ) {
    this.buckets = Array.from({ length: bucketCount }, () => new Map());
  }

  get size(): number {
    return this.byId.size;
  }

  entries(): BookEntry[] {
    return [...this.byId.values()].map(({ entry }) => entry);
  }

  has(peerId: string): boolean {
    return this.byId.has(peerId);
  }

  get(peerId: string): BookEntry | undefined {
    return this.byId.get(peerId)?.entry;
  }

  /** Adds an entry (replacing one with the same ID); returns the entry evicted to make room, if any. */
  add(entry: BookEntry, now = Date.now()): BookEntry | undefined {
    this.remove(entry.peerId);
    const index = bucketOf(
      this.kind,
      this.secret,
      this.buckets.length,
      entry.ipAddress,
      this.kind === 'new' ? entry.sourceAddress : undefined,
    );
    const bucket = this.buckets[index]!;
    const evicted = bucket.size >= this.bucketSize ? this.evictFrom(bucket, now) : undefined;
    bucket.set(entry.peerId, entry);
    this.byId.set(entry.peerId, { entry, bucket: index });
    return evicted;
  }

  remove(peerId: string): BookEntry | undefined {
    const found = this.byId.get(peerId);
    if (found === undefined) return undefined;
    this.buckets[found.bucket]!.delete(peerId);
    this.byId.delete(peerId);
    return found.entry;
  }

  private evictFrom(bucket: Map<string, BookEntry>, now: number): BookEntry | undefined {
    let victim: BookEntry | undefined;
    if (this.kind === 'new') {
      for (const entry of bucket.values()) {
        if (now - entry.dateAdded >= NEW_PEER_EXPIRY) {
          victim = entry;
          break;
        }
      }
    }
    if (victim === undefined) {
      const ids = [...bucket.keys()];
      victim = bucket.get(ids[Math.floor(Math.random() * ids.length)]!);
    }
    return victim === undefined ? undefined : this.remove(victim.peerId);
  }
}
