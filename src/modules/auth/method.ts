/** What other modules may ask the auth module (lisk-sdk auth/method.ts AuthMethod). */
import type { ReadContext } from '../base/index.js';
import type { AuthAccount, AuthAccountStore } from './stores.js';

export class AuthMethod {
  constructor(private readonly accounts: AuthAccountStore) {}

  /** The account of `address`, or the default account (nonce 0, single signature) (LIP 0041). */
  getAuthAccount(context: ReadContext, address: Buffer): AuthAccount {
    return this.accounts.getOrDefault(context.state, address);
  }
}
