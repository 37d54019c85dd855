/**
 * Writing user accounts the way lisk-sdk's UserStore.save does, which decides the stored bytes:
 * locked balances with amount 0 are dropped and the rest are sorted by module name under the
 * `en` locale collation (`String.prototype.localeCompare(other, 'en')`), not by code units.
 */
import type { StateWriter } from '../../state/state-view.js';
import { userKey, userStore, type LockedBalance, type UserAccount } from './stores.js';

/** One shared collator: `a.localeCompare(b, 'en')` is defined as this collator's `compare`. */
const moduleNameCollator = new Intl.Collator('en');

/** Orders module names as lisk-sdk does for locked balances (genesis checks and UserStore.save). */
export function compareModuleNames(a: string, b: string): number {
  return moduleNameCollator.compare(a, b);
}

/** Locked balances as UserStore.save stores them: no zero amounts, sorted by module name. */
export function normalizeLockedBalances(lockedBalances: readonly LockedBalance[]): LockedBalance[] {
  const kept = lockedBalances.filter((locked) => locked.amount !== 0n);
  if (kept.length > 1) kept.sort((a, b) => compareModuleNames(a.module, b.module));
  return kept;
}

/** Stores `account` for (address, tokenID) with normalized locked balances (lisk-sdk UserStore.save). */
export function saveUserAccount(state: StateWriter, address: Buffer, tokenID: Buffer, account: UserAccount): void {
  userStore.set(state, userKey(address, tokenID), {
    availableBalance: account.availableBalance,
    lockedBalances: normalizeLockedBalances(account.lockedBalances),
  });
}

/**
 * Adds `amount` to the available balance of an account that must exist, writing the account back
 * as decoded (lisk-sdk UserStore.addAvailableBalance: no locked-balance normalization). Throws
 * NotFoundError without an account.
 */
export function addAvailableBalance(state: StateWriter, address: Buffer, tokenID: Buffer, amount: bigint): void {
  const key = userKey(address, tokenID);
  const account = userStore.getOrThrow(state, key);
  account.availableBalance += amount;
  userStore.set(state, key, account);
}
