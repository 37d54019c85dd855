/** Stores of the legacy module (lisk-core legacy/stores), in substore index order. */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleStore } from '../base/index.js';
import { LEGACY_MODULE_NAME } from './constants.js';

export interface LegacyAccount {
  balance: bigint;
}

/** lisk-core's `$id` for it is `/legacy/store/genesis`. */
export const legacyAccountSchema: Schema = objectSchema('/legacy/store/genesis', {
  balance: { dataType: 'uint64', fieldNumber: 1 },
});

/** Unreclaimed pre-v4 balances, keyed by the 8-byte legacy address (see legacy-address.ts). */
export const legacyAccountStore = new ModuleStore<LegacyAccount>(LEGACY_MODULE_NAME, 'legacyAccount', 0, legacyAccountSchema);

export const legacyStores = [legacyAccountStore] as const;
