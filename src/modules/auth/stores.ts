/**
 * The auth module's one substore (LIP 0041 "Auth Account Substore"; lisk-sdk
 * auth/stores/auth_account.ts): index 0, key = 20-byte address, state key prefix 3df49c3c 0000.
 */
import type { Schema } from '../../codec/index.js';
import type { StateReader } from '../../state/state-view.js';
import { ModuleStore } from '../base/index.js';
import { AUTH_MODULE_NAME, ED25519_PUBLIC_KEY_LENGTH, MAX_NUMBER_OF_SIGNATURES } from './constants.js';

/**
 * An account's nonce and signature rules. `numberOfSignatures` 0 means a single-signature
 * account; otherwise keys = mandatoryKeys ‖ optionalKeys, each list sorted ascending.
 */
export interface AuthAccount {
  nonce: bigint;
  numberOfSignatures: number;
  mandatoryKeys: Buffer[];
  optionalKeys: Buffer[];
}

const publicKeyArray = (fieldNumber: number) =>
  ({
    type: 'array',
    items: { dataType: 'bytes', minLength: ED25519_PUBLIC_KEY_LENGTH, maxLength: ED25519_PUBLIC_KEY_LENGTH },
    minItems: 0,
    maxItems: MAX_NUMBER_OF_SIGNATURES,
    fieldNumber,
  }) as const;

export const authAccountSchema: Schema = {
  $id: '/auth/account',
  type: 'object',
  properties: {
    nonce: { dataType: 'uint64', fieldNumber: 1 },
    numberOfSignatures: { dataType: 'uint32', fieldNumber: 2, minimum: 0, maximum: MAX_NUMBER_OF_SIGNATURES },
    mandatoryKeys: publicKeyArray(3),
    optionalKeys: publicKeyArray(4),
  },
  required: ['nonce', 'numberOfSignatures', 'mandatoryKeys', 'optionalKeys'],
};

/** The account every address has until its first transaction or registration. */
export function defaultAuthAccount(): AuthAccount {
  return { nonce: 0n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] };
}

export class AuthAccountStore extends ModuleStore<AuthAccount> {
  constructor() {
    super(AUTH_MODULE_NAME, 'authAccount', 0, authAccountSchema);
  }

  /** The stored account, or a fresh default one (lisk-sdk AuthAccountStore.getOrDefault). */
  getOrDefault(state: StateReader, address: Buffer): AuthAccount {
    return this.get(state, address) ?? defaultAuthAccount();
  }
}
