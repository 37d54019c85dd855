/** Shapes of the off-chain hash onion data (lisk-sdk random/stores/hash_onion.ts, used_hash_onions.ts). */

/**
 * A validator's hash onion as checkpoints (lisk-cryptography hashOnion): `hashes` = [H^count(seed),
 * H^(count−distance)(seed), …, seed], count/distance + 1 entries of 16 bytes.
 */
export interface HashOnionCheckpoints {
  readonly count: number;
  readonly distance: number;
  readonly hashes: readonly Buffer[];
}

/** The onion's use-count reached by the block generated at `height`. */
export interface UsedHashOnion {
  readonly count: number;
  readonly height: number;
}
