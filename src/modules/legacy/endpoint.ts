/** RPC endpoint `legacy_getLegacyAccount` (lisk-core legacy/endpoint.ts). */
import { validate } from '../../codec/index.js';
import type { EndpointContext, EndpointHandler } from '../base/index.js';
import { legacyAddressOfPublicKey } from './legacy-address.js';
import { legacyAccountRequestSchema, legacyAccountResponseSchema } from './schemas.js';
import { legacyAccountStore } from './stores.js';

export interface LegacyAccountJSON {
  /** 16 hex digits. */
  legacyAddress: string;
  /** Unreclaimed balance in beddows; "0" when nothing is left to reclaim. */
  balance: string;
}

/**
 * `{publicKey: hex}` → the public key's legacy address and its unreclaimed balance. An unknown
 * (or already reclaimed) account is not an error: its balance is "0".
 */
export function getLegacyAccount(context: EndpointContext): LegacyAccountJSON {
  // lisk-core validates inside the handler too; cheap, and keeps direct callers honest.
  validate(legacyAccountRequestSchema, context.params);
  const publicKey = Buffer.from(context.params.publicKey as string, 'hex');
  const legacyAddress = legacyAddressOfPublicKey(publicKey);
  const account = legacyAccountStore.get(context.state, legacyAddress);
  return { legacyAddress: legacyAddress.toString('hex'), balance: (account?.balance ?? 0n).toString() };
}

export const legacyEndpoints: Readonly<Record<string, EndpointHandler>> = Object.freeze({
  getLegacyAccount: {
    request: legacyAccountRequestSchema,
    response: legacyAccountResponseSchema,
    handle: getLegacyAccount,
  },
});
