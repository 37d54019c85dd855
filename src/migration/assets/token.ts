/**
 * The token module's genesis asset (lisk-migrator `src/assets/token.ts`): each account's LSK
 * balance as available, its v3 votes and pending unvotes as locked by PoS, the legacy reserve
 * holding the unregistered balances locked by the legacy module, and the total supply.
 */
import { encodeLisk32Address } from '../../codec/index.js';
import { ADDRESS_LEGACY_RESERVE } from '../../modules/legacy/constants.js';
import { legacyReserveAmount, reserveAccount } from './legacy.js';
import { compareBytes, type MigrationState, posLockedAmount } from './migration-state.js';
import type { V3Account } from '../v3/v3-schemas.js';

interface LockedBalance {
  readonly module: string;
  readonly amount: string;
}

interface UserEntry {
  readonly tokenID: string;
  readonly availableBalance: string;
  readonly lockedBalances: readonly LockedBalance[];
  readonly address: string;
}

export interface TokenAssetData {
  readonly userSubstore: readonly UserEntry[];
  readonly supplySubstore: readonly { readonly tokenID: string; readonly totalSupply: string }[];
  readonly escrowSubstore: readonly never[];
  readonly supportedTokensSubstore: readonly never[];
}

function posLocks(account: V3Account): LockedBalance[] {
  const amount = posLockedAmount(account);
  return amount > 0n ? [{ module: 'pos', amount: amount.toString() }] : [];
}

/**
 * Every account but the reserve gets an entry, whatever its balance; the reserve gets one
 * entry with its own balance and locks plus the legacy lock, even when that lock is 0. The
 * supply counts every account's balance and PoS lock, and the legacy lock on top: a reserve
 * that held LSK in v3 is counted twice, as lisk-migrator does (v4 then rejects the block).
 */
export function createTokenAsset(state: MigrationState): TokenAssetData {
  const tokenID = state.tokenID.toString('hex');
  const legacyAmount = legacyReserveAmount(state);
  const reserve = reserveAccount(state);

  let totalSupply = legacyAmount;
  const entries: { address: Buffer; entry: UserEntry }[] = [];
  for (const account of state.accounts) {
    totalSupply += account.token.balance + posLockedAmount(account);
    if (account.address.equals(ADDRESS_LEGACY_RESERVE)) continue;
    entries.push({ address: account.address, entry: userEntry(tokenID, account.address, account.token.balance, posLocks(account)) });
  }
  const reserveLocks = [...(reserve === undefined ? [] : posLocks(reserve)), { module: 'legacy', amount: legacyAmount.toString() }].sort(
    (a, b) => a.module.localeCompare(b.module, 'en'),
  );
  entries.push({
    address: ADDRESS_LEGACY_RESERVE,
    entry: userEntry(tokenID, ADDRESS_LEGACY_RESERVE, reserve?.token.balance ?? 0n, reserveLocks),
  });
  // One token ID, so (address, tokenID) order is address order.
  entries.sort((a, b) => compareBytes(a.address, b.address));

  return {
    userSubstore: entries.map(({ entry }) => entry),
    supplySubstore: [{ tokenID, totalSupply: totalSupply.toString() }],
    escrowSubstore: [],
    supportedTokensSubstore: [],
  };
}

function userEntry(tokenID: string, address: Buffer, balance: bigint, lockedBalances: LockedBalance[]): UserEntry {
  return { tokenID, availableBalance: balance.toString(), lockedBalances, address: encodeLisk32Address(address) };
}
