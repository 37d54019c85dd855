/**
 * The legacy module's genesis asset (lisk-migrator `src/assets/legacy.ts`): every v3
 * unregistered address (8-byte pre-LIP 0018 address with a balance), sorted by address bytes,
 * and the amount the legacy reserve must hold locked for them.
 */
import { codec } from '../../codec/index.js';
import { genesisLegacyStoreSchema } from '../../modules/legacy/schemas.js';
import type { V3UnregisteredAddress } from '../v3/v3-schemas.js';
import { compareBytes } from './account-rules.js';

export interface LegacyAsset {
  readonly json: { readonly accounts: readonly { readonly address: string; readonly balance: string }[] };
  readonly bytes: Buffer;
}

export function createLegacyAsset(unregisteredAddresses: readonly V3UnregisteredAddress[]): LegacyAsset {
  const accounts = [...unregisteredAddresses].sort((a, b) => compareBytes(a.address, b.address));
  return {
    json: { accounts: accounts.map(({ address, balance }) => ({ address: address.toString('hex'), balance: balance.toString() })) },
    bytes: codec.encode(genesisLegacyStoreSchema, { accounts }),
  };
}

/**
 * The reserve's legacy lock: the reserve account's own v3 balance (0 when it has no account)
 * plus every unregistered balance. The reserve's balance counts although v4's legacy module
 * checks the lock against the unregistered balances alone: lisk-migrator does it so.
 */
export function legacyReserveAmount(reserveBalance: bigint, unregisteredAddresses: readonly V3UnregisteredAddress[]): bigint {
  let amount = reserveBalance;
  for (const { balance } of unregisteredAddresses) amount += balance;
  return amount;
}
