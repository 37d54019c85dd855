/**
 * Keys of a Lisk Core 3 database. Lisk Core 3 (lisk-chain 3.x, `framework/src/.../data_access`)
 * built every key as a JavaScript string, `prefix + bytes.toString('binary')`, and its RocksDB
 * binding stored that string as UTF-8: each byte of an id, address or height that is 0x80 or more
 * is on disk as two bytes (`c2 xx` or `c3 xx`). Reading those keys means repeating the same
 * mangling; UTF-8 keeps code point order, so a range over the logical bytes is still a range.
 */

export const V3_PREFIX = {
  accountsAddress: 'accounts:address:',
  blocksID: 'blocks:id:',
  blocksHeight: 'blocks:height:',
  transactionsID: 'transactions:id:',
  transactionsBlockID: 'transactions:blockID:',
  unregisteredAddresses: 'chain:unregisteredAddresses',
  delegateVoteWeights: 'chain:dpos:delegateVoteWeights',
  previouslyForged: 'forger:previouslyForged',
  stateDiff: 'diff:',
} as const;

/** The on-disk key for `prefix` followed by `bytes`, as Lisk Core 3 wrote it. */
export function v3Key(prefix: string, bytes: Uint8Array = new Uint8Array(0)): Buffer {
  return Buffer.from(prefix + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'), 'utf8');
}

/** The logical bytes of an on-disk key (the inverse of v3Key over the whole key). */
export function logicalV3Key(stored: Uint8Array): Buffer {
  return Buffer.from(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).toString('utf8'), 'latin1');
}

/** The logical bytes after `prefix` in an on-disk key. */
export function v3KeySuffix(stored: Uint8Array, prefix: string): Buffer {
  return logicalV3Key(stored).subarray(prefix.length);
}

/** A height as Lisk Core 3 keyed it: 4 bytes big-endian (lisk-chain `formatInt`). */
export function heightBytes(height: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(height);
  return bytes;
}

/** The bounds of a scan over `prefix` + every suffix of `length` bytes (00… to ff…). */
export function v3Range(prefix: string, length: number): { readonly gte: Buffer; readonly lte: Buffer } {
  return { gte: v3Key(prefix, Buffer.alloc(length, 0)), lte: v3Key(prefix, Buffer.alloc(length, 0xff)) };
}
