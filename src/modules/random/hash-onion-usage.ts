/**
 * Bookkeeping of hash onion use (lisk-sdk random/stores/used_hash_onions.ts getLatest/setLatest):
 * one record per block a validator generated, pruned at finalization. The record order matters
 * because `random_getHashOnionUsage` shows it, so it follows lisk-sdk.
 */
import type { UsedHashOnion } from './hash-onion-types.js';

/**
 * The record with the greatest height (only among heights below `belowHeight` when given); on a
 * tie the earlier record wins. Undefined when none qualifies.
 */
export function latestUsage(usage: readonly UsedHashOnion[], belowHeight?: number): UsedHashOnion | undefined {
  let latest: UsedHashOnion | undefined;
  for (const entry of usage) {
    if (belowHeight !== undefined && entry.height >= belowHeight) continue;
    if (latest === undefined || latest.height < entry.height) latest = entry;
  }
  return latest;
}

/**
 * The usage list after recording `entry`: a record with the same count is replaced, a count of 0
 * (a new onion, or no onion at all) starts the list afresh, anything else is appended. Then every
 * record at or below `finalizedHeight` is dropped except the highest one, which moves to the end.
 */
export function recordUsage(usage: readonly UsedHashOnion[], entry: UsedHashOnion, finalizedHeight: number): UsedHashOnion[] {
  const sameCount = usage.findIndex((record) => record.count === entry.count);
  let updated: UsedHashOnion[];
  if (sameCount !== -1) {
    updated = [...usage];
    updated[sameCount] = entry;
  } else if (entry.count === 0) {
    updated = [entry];
  } else {
    updated = [...usage, entry];
  }
  return pruneFinalized(updated, finalizedHeight);
}

/**
 * Keeps the highest record (moved last) and the others above `finalizedHeight`, in lisk-sdk's
 * order: a record that stops being the highest takes its place among the others at that point.
 */
function pruneFinalized(usage: readonly UsedHashOnion[], finalizedHeight: number): UsedHashOnion[] {
  let highest: UsedHashOnion | undefined;
  const others: UsedHashOnion[] = [];
  for (const record of usage) {
    if (highest === undefined) {
      highest = record;
    } else if (highest.height < record.height) {
      others.push(highest);
      highest = record;
    } else {
      others.push(record);
    }
  }
  const kept = others.filter((record) => record.height > finalizedHeight);
  if (highest !== undefined) kept.push(highest);
  return kept;
}
