/**
 * The legacy genesis asset (lisk-core legacy/module.ts initGenesisState):
 * the unreclaimed pre-v4 balances, whose sum must be exactly what the token module holds locked
 * under module `legacy` on the legacy reserve account.
 */
import { codec, validate } from '../../codec/index.js';
import { ValidationError } from '../../errors.js';
import type { GenesisContext } from '../base/index.js';
import { ADDRESS_LEGACY_RESERVE, LEGACY_ADDRESS_LENGTH, LEGACY_MODULE_NAME, LEGACY_TOTAL_BALANCE_LIMIT } from './constants.js';
import type { LegacyTokenMethod } from './dependencies.js';
import { genesisLegacyStoreSchema } from './schemas.js';
import { legacyAccountStore } from './stores.js';

export interface GenesisLegacyStore {
  accounts: { address: Buffer; balance: bigint }[];
}

function fail(message: string): never {
  throw new ValidationError([message]);
}

/**
 * Decodes and checks the asset in lisk-core's order (schema; each address 8 bytes; addresses
 * pairwise distinct; Σ balance < 2^64; Σ balance = locked amount), then writes every account.
 * Nothing happens without an asset. Runs after the token module's initGenesisState (legacy is
 * registered last), so the reserve's lock is already in the state.
 */
export function initLegacyGenesisState(context: GenesisContext, tokenIDReclaim: Buffer, token: LegacyTokenMethod): void {
  const bytes = context.assets.getAsset(LEGACY_MODULE_NAME);
  if (bytes === undefined) return;

  const { accounts } = codec.decode<GenesisLegacyStore>(genesisLegacyStoreSchema, bytes);
  validate(genesisLegacyStoreSchema, { accounts });

  const distinct = new Set<string>();
  let totalBalance = 0n;
  for (const { address, balance } of accounts) {
    // Already enforced by the schema; kept because lisk-core checks it again with its own message.
    if (address.length !== LEGACY_ADDRESS_LENGTH) {
      fail(`legacy address length is invalid, expected ${LEGACY_ADDRESS_LENGTH}, actual ${address.length}`);
    }
    distinct.add(address.toString('hex'));
    totalBalance += balance;
  }
  if (distinct.size !== accounts.length) fail('Legacy address entries are not pair-wise distinct');
  if (totalBalance >= LEGACY_TOTAL_BALANCE_LIMIT) fail('Total balance for all legacy accounts cannot exceed 2^64');

  const lockedAmount = token.getLockedAmount(context, ADDRESS_LEGACY_RESERVE, tokenIDReclaim, LEGACY_MODULE_NAME);
  if (totalBalance !== lockedAmount) fail('Total balance for all legacy accounts is not equal to locked amount');

  for (const { address, balance } of accounts) legacyAccountStore.set(context.state, address, { balance });
}
