/**
 * GET /api/node/status: Core 2.x's node status (cli_migration.md §6.2) with the fields Basalt
 * can fill. Basalt has no peer-to-peer layer, so like a Core node without peers networkHeight
 * is 0; consensus (the share of peers on our broadhash) is 100 when the node is not syncing,
 * because no peer disagrees. broadhash is the tip's block ID (Core hashed recent block IDs).
 * Core 2.x's transaction counters map to the transaction pool: `ready` and `total` are its size;
 * `confirmed` (a count of every transaction on chain) is not kept and left out.
 */

/** Lisk epoch 2016-05-24T17:00:00Z, in Unix seconds. */
export const LISK_EPOCH_SECONDS = 1_464_109_200;

export interface NodeStatusSource {
  tip(): { readonly height: number; readonly id: Buffer };
  syncing(): boolean;
  poolSize(): number;
  /** Milliseconds. */
  now(): number;
}

export interface NodeStatusJSON {
  broadhash: string;
  consensus: number;
  currentTime: number;
  secondsSinceEpoch: number;
  height: number;
  loaded: boolean;
  networkHeight: number;
  syncing: boolean;
  transactions: { ready: number; pending: number; verified: number; validated: number; received: number; total: number };
}

export function nodeStatus(source: NodeStatusSource): NodeStatusJSON {
  const tip = source.tip();
  const now = source.now();
  const syncing = source.syncing();
  const pooled = source.poolSize();
  return {
    broadhash: tip.id.toString('hex'),
    consensus: syncing ? 0 : 100,
    currentTime: now,
    secondsSinceEpoch: Math.floor(now / 1000) - LISK_EPOCH_SECONDS,
    height: tip.height,
    loaded: true,
    networkHeight: 0,
    syncing,
    transactions: { ready: pooled, pending: 0, verified: 0, validated: 0, received: 0, total: pooled },
  };
}
