/**
 * The interoperability module's genesis asset (lisk-migrator `src/assets/interoperability.ts`):
 * the Lisk mainchain's own name and nothing else, on mainnet and testnet alike.
 */
export interface InteroperabilityAssetData {
  readonly ownChainName: string;
  readonly ownChainNonce: string;
  readonly chainInfos: readonly never[];
  readonly terminatedStateAccounts: readonly never[];
  readonly terminatedOutboxAccounts: readonly never[];
}

export function createInteroperabilityAsset(): InteroperabilityAssetData {
  return { ownChainName: 'lisk_mainchain', ownChainNonce: '0', chainInfos: [], terminatedStateAccounts: [], terminatedOutboxAccounts: [] };
}
