/**
 * The Lisk Core 3 networks lisk-migrator 2.0.1 knows (`src/constants.ts` `NETWORK_CONSTANT`), by
 * v3 network identifier: the v4 network each becomes and its LSK token ID.
 */
export interface V3Network {
  readonly name: 'mainnet' | 'testnet';
  readonly tokenId: string;
}

const V3_NETWORKS: Readonly<Record<string, V3Network>> = {
  '4c09e6a781fc4c7bdb936ee815de8f94190f8a7519becd9de2081832be309a99': { name: 'mainnet', tokenId: '0000000000000000' },
  '15f0dacc1060e91818224a94286b13aa04279c640bd5d6f193182031d133df7c': { name: 'testnet', tokenId: '0100000000000000' },
};

export function v3NetworkById(networkIdentifier: string): V3Network | undefined {
  return V3_NETWORKS[networkIdentifier];
}

/** The `--chainid` of `keys:create`: the token ID's first byte (0 mainnet, 1 testnet). */
export function chainIdOf(network: 'mainnet' | 'testnet'): number {
  return network === 'mainnet' ? 0 : 1;
}
