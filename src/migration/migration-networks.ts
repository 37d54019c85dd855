/**
 * The two networks lisk-migrator 2.0.1 can migrate, as data: its network table
 * (`src/constants.ts` NETWORK_CONSTANT: the v3 network identifier and the LSK token ID) and the
 * chain settings its genesis block is built with, i.e. Lisk Core 4.0.3's `config/<network>/config.json`
 * merged with the migrator's bundled `config/<network>/config.json`. Only what genesis execution
 * reads is kept: the genesis section and the module configs.
 */
export type MigrationNetwork = 'mainnet' | 'testnet';

export interface MigrationNetworkFacts {
  /** The Lisk Core 3 network identifier (hex), which names the network in v3 node info. */
  readonly v3NetworkIdentifier: string;
  /** The LSK token ID on the v4 chain (hex). */
  readonly tokenID: string;
  /** The v4 config sections that genesis execution reads, in Lisk config format. */
  readonly config: {
    readonly genesis: {
      readonly block: { readonly fromFile: string };
      readonly blockTime: number;
      readonly chainID: string;
      readonly maxTransactionsSize: number;
      readonly minimumCertifyHeight: number;
    };
    readonly modules: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  };
}

const REWARD_BRACKETS = ['500000000', '400000000', '300000000', '200000000', '100000000'];

function facts(v3NetworkIdentifier: string, tokenID: string, chainID: string, minimumCertifyHeight: number): MigrationNetworkFacts {
  return {
    v3NetworkIdentifier,
    tokenID,
    config: {
      genesis: {
        block: { fromFile: './config/genesis_block.blob' },
        blockTime: 10,
        chainID,
        maxTransactionsSize: 15360,
        minimumCertifyHeight,
      },
      modules: {
        dynamicReward: { tokenID, offset: 2160, distance: 3000000, brackets: REWARD_BRACKETS },
        fee: { feeTokenID: tokenID },
        pos: { maxBFTWeightCap: 1000, useInvalidBLSKey: true },
      },
    },
  };
}

export const MIGRATION_NETWORKS: Readonly<Record<MigrationNetwork, MigrationNetworkFacts>> = {
  mainnet: facts('4c09e6a781fc4c7bdb936ee815de8f94190f8a7519becd9de2081832be309a99', '0000000000000000', '00000000', 23461753),
  testnet: facts('15f0dacc1060e91818224a94286b13aa04279c640bd5d6f193182031d133df7c', '0100000000000000', '01000000', 20520176),
};
