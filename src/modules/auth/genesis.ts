/**
 * The auth module's genesis asset (LIP 0041 "Genesis Block Processing"; lisk-sdk auth module.ts
 * initGenesisState): a list of (address, account) entries, checked in lisk-sdk's order.
 */
import { codec, validate } from '../../codec/index.js';
import { ValidationError } from '../../errors.js';
import type { StateWriter } from '../../state/state-view.js';
import { hasDuplicates, isSortedAscending, sharesAnItem } from './buffer-lists.js';
import { ADDRESS_LENGTH } from './constants.js';
import { genesisAuthStoreSchema } from './schemas.js';
import { authAccountSchema, type AuthAccount, type AuthAccountStore } from './stores.js';

export interface GenesisAuthStore {
  authDataSubstore: { address: Buffer; authAccount: AuthAccount }[];
}

function fail(message: string): never {
  throw new ValidationError([message]);
}

/** The reason an account may not appear in a genesis block, or undefined when it may. */
function genesisAccountProblem(account: AuthAccount, maxNumberOfSignatures: number): string | undefined {
  const { mandatoryKeys, optionalKeys, numberOfSignatures } = account;
  if (!isSortedAscending(mandatoryKeys)) {
    return 'Invalid store value for auth module. MandatoryKeys are not sorted lexicographically.';
  }
  if (hasDuplicates(mandatoryKeys)) return 'Invalid store value for auth module. MandatoryKeys are not unique.';
  if (!isSortedAscending(optionalKeys)) {
    return 'Invalid store value for auth module. OptionalKeys are not sorted lexicographically.';
  }
  if (hasDuplicates(optionalKeys)) return 'Invalid store value for auth module. OptionalKeys are not unique.';
  const keyCount = mandatoryKeys.length + optionalKeys.length;
  if (keyCount > maxNumberOfSignatures) {
    return `The count of Mandatory and Optional keys should be maximum ${maxNumberOfSignatures}.`;
  }
  if (sharesAnItem(mandatoryKeys, optionalKeys)) {
    return 'Invalid combination of Mandatory and Optional keys. Repeated keys across Mandatory and Optional were found.';
  }
  if (keyCount < numberOfSignatures) {
    return 'The numberOfSignatures is bigger than the count of Mandatory and Optional keys.';
  }
  if (mandatoryKeys.length > numberOfSignatures) {
    return 'The numberOfSignatures is smaller than the count of Mandatory keys.';
  }
  return undefined;
}

/**
 * Decodes the asset, checks every entry and writes the accounts. Throws ValidationError (or the
 * codec's DecodeError) on the first problem; the genesis block is then invalid.
 */
export function initAuthGenesisState(
  state: StateWriter,
  accounts: AuthAccountStore,
  assetBytes: Buffer,
  maxNumberOfSignatures: number,
): void {
  const genesis = codec.decode<GenesisAuthStore>(genesisAuthStoreSchema, assetBytes);
  for (const { address, authAccount } of genesis.authDataSubstore) {
    if (address.length !== ADDRESS_LENGTH) fail('Invalid store key length for auth module.');
    validate(authAccountSchema, authAccount);
    const problem = genesisAccountProblem(authAccount, maxNumberOfSignatures);
    if (problem !== undefined) fail(problem);
    accounts.set(state, address, authAccount);
  }
  if (hasDuplicates(genesis.authDataSubstore.map((entry) => entry.address))) {
    // lisk-sdk's message, word for word.
    fail('Duplicate address in the for auth module.');
  }
}
