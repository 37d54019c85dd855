/**
 * A bounded cache of deserialised BLS public keys, keyed by their encoded bytes. Decompressing a
 * G1 point is the expensive part of an aggregate verification (one square root each; ~100 keys
 * per certificate), while the set of validator keys changes rarely, so a warm cache turns a
 * 101-key FastAggregateVerify into little more than one pairing check.
 *
 * Keys are stored as decoded, without the subgroup check (the SDK does not check keys in
 * FastAggregateVerify: their proof of possession was checked at registration). Whether a key
 * also passes KeyValidate is computed on first demand and remembered.
 */
import { PublicKey } from '@chainsafe/blst';

interface CacheEntry {
  readonly key: PublicKey;
  validated: boolean | undefined;
}

/** Enough for every active and standby validator several times over. */
const DEFAULT_CAPACITY = 4096;

export class BlsPublicKeyCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly capacity: number = DEFAULT_CAPACITY) {}

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  /** The decoded key, or undefined when the bytes are not a point encoding blst accepts. */
  get(bytes: Uint8Array): PublicKey | undefined {
    return this.entry(bytes)?.key;
  }

  /** The decoded key only if it passes KeyValidate (not the identity, in G1). */
  getValidated(bytes: Uint8Array): PublicKey | undefined {
    const entry = this.entry(bytes);
    if (entry === undefined) return undefined;
    if (entry.validated === undefined) {
      try {
        entry.key.keyValidate();
        entry.validated = true;
      } catch {
        entry.validated = false;
      }
    }
    return entry.validated ? entry.key : undefined;
  }

  private entry(bytes: Uint8Array): CacheEntry | undefined {
    // latin1 maps each byte to one UTF-16 unit: a cheap, collision-free string key.
    const id = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
    const cached = this.entries.get(id);
    if (cached !== undefined) return cached;
    let key: PublicKey;
    try {
      key = PublicKey.fromBytes(bytes, false);
    } catch {
      return undefined; // malformed bytes are not cached: they are cheap to reject again
    }
    if (this.entries.size >= this.capacity) {
      // Evict the oldest insertion (Map keeps insertion order): simple and O(1).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const entry: CacheEntry = { key, validated: undefined };
    this.entries.set(id, entry);
    return entry;
  }
}

/** The process-wide cache used by the BLS functions of this room. */
export const blsPublicKeyCache = new BlsPublicKeyCache();
