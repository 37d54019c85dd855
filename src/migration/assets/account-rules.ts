/**
 * Small rules over v3 accounts that several assets share.
 */
import type { V3Account } from '../v3/v3-schemas.js';

/** Σ sentVotes.amount + Σ unlocking.amount: what v4 PoS holds locked for the account. */
export function posLockedAmount(account: V3Account): bigint {
  let sum = 0n;
  for (const vote of account.dpos.sentVotes) sum += vote.amount;
  for (const unlocking of account.dpos.unlocking) sum += unlocking.amount;
  return sum;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

export function isDelegateAccount(account: V3Account): boolean {
  return account.dpos.delegate.username !== '';
}
