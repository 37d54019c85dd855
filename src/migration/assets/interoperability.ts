/**
 * The interoperability module's genesis asset (lisk-migrator `src/assets/interoperability.ts`):
 * the Lisk mainchain's own name and nothing else, on mainnet and testnet alike.
 */
import { codec } from '../../codec/index.js';
import { genesisInteroperabilitySchema } from '../../modules/interoperability/schemas.js';

export function createInteroperabilityAsset(): { readonly json: Record<string, unknown>; readonly bytes: Buffer } {
  const json = {
    ownChainName: 'lisk_mainchain',
    ownChainNonce: '0',
    chainInfos: [],
    terminatedStateAccounts: [],
    terminatedOutboxAccounts: [],
  };
  const bytes = codec.encode(genesisInteroperabilitySchema, { ...json, ownChainNonce: 0n });
  return { json, bytes };
}
