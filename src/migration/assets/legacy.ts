/**
 * The legacy module's genesis asset (lisk-migrator `src/assets/legacy.ts`): every v3
 * unregistered address (8-byte pre-LIP 0018 address with a balance), sorted by address bytes,
 * and the amount the legacy reserve must hold locked for them.
 */
import { ADDRESS_LEGACY_RESERVE } from '../../modules/legacy/constants.js';
import { compareBytes, type MigrationState } from './migration-state.js';

export interface LegacyAssetData {
  readonly accounts: readonly { readonly address: string; readonly balance: string }[];
}

export function createLegacyAsset(state: MigrationState): LegacyAssetData {
  const accounts = [...state.unregisteredAddresses]
    .sort((a, b) => compareBytes(a.address, b.address))
    .map(({ address, balance }) => ({ address: address.toString('hex'), balance: balance.toString() }));
  return { accounts };
}

/**
 * The reserve's legacy lock: the reserve account's own v3 balance (0 when it has no account)
 * plus every unregistered balance. The reserve's balance counts although v4's legacy module
 * checks the lock against the unregistered balances alone: lisk-migrator does it so.
 */
export function legacyReserveAmount(state: MigrationState): bigint {
  let amount = reserveAccount(state)?.token.balance ?? 0n;
  for (const { balance } of state.unregisteredAddresses) amount += balance;
  return amount;
}

export function reserveAccount(state: MigrationState) {
  return state.accounts.find((account) => account.address.equals(ADDRESS_LEGACY_RESERVE));
}
