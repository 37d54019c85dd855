/**
 * Token genesis (lisk-sdk token/module.ts initGenesisState; LIP 0051 "Genesis Block
 * Processing"): the dev chain's asset, and every check with the message lisk-sdk throws.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { decodeLisk32, encodeLisk32 } from '../../../../src/crypto/index.js';
import {
  ALL_SUPPORTED_TOKENS_KEY,
  escrowKey,
  escrowStore,
  genesisTokenAssetSchema,
  supplyStore,
  supportedTokensStore,
  type TokenModule,
  userKey,
  userStore,
  type GenesisTokenAsset,
} from '../../../../src/modules/token/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { createTokenAndFee, devGenesisTokenAsset } from './token-test-kit.js';

const LSK = Buffer.from('0400000000000000', 'hex');
const FOREIGN = Buffer.from('0400000100000000', 'hex');
const address = (byte: number) => Buffer.alloc(20, byte);

function emptyAsset(): GenesisTokenAsset {
  return { userSubstore: [], supplySubstore: [], escrowSubstore: [], supportedTokensSubstore: [] };
}

function user(addr: Buffer, availableBalance: bigint, tokenID = LSK, lockedBalances: { module: string; amount: bigint }[] = []) {
  return { address: addr, tokenID, availableBalance, lockedBalances };
}

function runGenesis(asset: GenesisTokenAsset | Buffer): { harness: ModuleHarness; token: TokenModule } {
  const { token } = createTokenAndFee();
  const harness = new ModuleHarness({ header: { height: 0 } });
  harness.assets.set('token', Buffer.isBuffer(asset) ? asset : codec.encode(genesisTokenAssetSchema, asset));
  token.initGenesisState(harness.genesisContext());
  return { harness, token };
}

function genesisError(asset: GenesisTokenAsset): string {
  try {
    runGenesis(asset);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('genesis was accepted');
}

describe('token genesis: the dev chain asset', () => {
  interface AssetJSON {
    userSubstore: { address: string; tokenID: string; availableBalance: string; lockedBalances: { module: string; amount: string }[] }[];
    supplySubstore: { tokenID: string; totalSupply: string }[];
  }
  const fixture = loadJsonFixture<{ assets: { module: string; data: AssetJSON }[] }>('chains/dev/genesis_assets.json');
  const json = fixture.assets.find((asset) => asset.module === 'token')?.data as AssetJSON;

  it('genesis_assets.json data encodes to the token asset bytes of the genesis block', () => {
    const value = codec.fromJSON(genesisTokenAssetSchema, json);
    expect(codec.encode(genesisTokenAssetSchema, value).toString('hex')).toBe(devGenesisTokenAsset().toString('hex'));
    recordCases('chains/dev/genesis_assets.json', 1);
  });

  it('writes one user entry per asset entry, the supply, and no escrow or supported-token entries', () => {
    const { harness } = runGenesis(devGenesisTokenAsset());
    const changes = harness.state.changes();
    expect(changes).toHaveLength(json.userSubstore.length + json.supplySubstore.length);
    for (const entry of json.userSubstore) {
      const stored = userStore.get(harness.state, userKey(decodeLisk32(entry.address), Buffer.from(entry.tokenID, 'hex')));
      expect(stored).toEqual({
        availableBalance: BigInt(entry.availableBalance),
        lockedBalances: entry.lockedBalances.map((locked) => ({ module: locked.module, amount: BigInt(locked.amount) })),
      });
    }
    expect(supplyStore.get(harness.state, LSK)).toEqual({ totalSupply: 211701250000000n });
    // Genesis emits no token events.
    expect(harness.events.events()).toEqual([]);
  });

  it('does nothing without a token asset', () => {
    const { token } = createTokenAndFee();
    const harness = new ModuleHarness({ header: { height: 0 } });
    token.initGenesisState(harness.genesisContext());
    expect(harness.state.changes()).toEqual([]);
  });
});

describe('token genesis: accepted assets', () => {
  it('stores locked balances and accounts for them, foreign tokens and escrows in the supply check', () => {
    const asset = emptyAsset();
    asset.userSubstore = [
      user(address(1), 10n, LSK, [
        { module: 'fee', amount: 3n },
        { module: 'pos', amount: 4n },
      ]),
      user(address(1), 99n, FOREIGN),
      user(address(2), 5n),
    ];
    asset.supplySubstore = [
      { tokenID: LSK, totalSupply: 10n + 3n + 4n + 5n + 100n },
      { tokenID: Buffer.from('0400000000000001', 'hex'), totalSupply: 0n },
    ];
    asset.escrowSubstore = [{ escrowChainID: Buffer.from('04000001', 'hex'), tokenID: LSK, amount: 100n }];
    const { harness } = runGenesis(asset);
    expect(userStore.get(harness.state, userKey(address(1), LSK))?.lockedBalances).toEqual([
      { module: 'fee', amount: 3n },
      { module: 'pos', amount: 4n },
    ]);
    expect(userStore.get(harness.state, userKey(address(1), FOREIGN))?.availableBalance).toBe(99n);
    expect(escrowStore.get(harness.state, escrowKey(Buffer.from('04000001', 'hex'), LSK))).toEqual({ amount: 100n });
  });

  it('a single entry with an empty chain ID supports all tokens', () => {
    const asset = emptyAsset();
    asset.supportedTokensSubstore = [{ chainID: Buffer.alloc(0), supportedTokenIDs: [] }];
    const { harness } = runGenesis(asset);
    expect(supportedTokensStore.get(harness.state, ALL_SUPPORTED_TOKENS_KEY)).toEqual({ supportedTokenIDs: [] });
  });

  it('stores per-chain supported token lists', () => {
    const asset = emptyAsset();
    const chainA = Buffer.from('04000001', 'hex');
    const chainB = Buffer.from('04000002', 'hex');
    asset.supportedTokensSubstore = [
      { chainID: chainA, supportedTokenIDs: [] },
      {
        chainID: chainB,
        supportedTokenIDs: [Buffer.from('0400000200000000', 'hex'), Buffer.from('0400000200000001', 'hex')],
      },
    ];
    const { harness } = runGenesis(asset);
    expect(supportedTokensStore.get(harness.state, chainA)).toEqual({ supportedTokenIDs: [] });
    expect(supportedTokensStore.get(harness.state, chainB)?.supportedTokenIDs).toHaveLength(2);
  });

  it('sorts locked balances by module under the en collation, not by code unit', () => {
    // 'a' < 'B' for the collator while 'B' (0x42) < 'a' (0x61) by code unit.
    const asset = emptyAsset();
    asset.userSubstore = [
      user(address(1), 0n, LSK, [
        { module: 'a', amount: 1n },
        { module: 'B', amount: 1n },
      ]),
    ];
    asset.supplySubstore = [{ tokenID: LSK, totalSupply: 2n }];
    expect(() => runGenesis(asset)).not.toThrow();
    asset.userSubstore = [
      user(address(1), 0n, LSK, [
        { module: 'B', amount: 1n },
        { module: 'a', amount: 1n },
      ]),
    ];
    expect(genesisError(asset)).toBe('Locked balances must be sorted by module.');
  });
});

describe('token genesis: rejected assets (lisk-sdk messages)', () => {
  const addr1 = encodeLisk32(address(1));

  it('rejects bytes that do not decode', () => {
    expect(() => runGenesis(Buffer.from('ff', 'hex'))).toThrow();
  });

  it('rejects a value that violates the schema (module name longer than 32)', () => {
    const asset = emptyAsset();
    asset.userSubstore = [user(address(1), 1n, LSK, [{ module: 'm'.repeat(33), amount: 1n }])];
    asset.supplySubstore = [{ tokenID: LSK, totalSupply: 2n }];
    expect(() => runGenesis(asset)).toThrow(/lockedBalances\[0\]\.module/);
  });

  it('duplicate user entries', () => {
    const asset = emptyAsset();
    asset.userSubstore = [user(address(1), 1n), user(address(1), 1n)];
    expect(genesisError(asset)).toBe(`Address ${addr1} and tokenID 0400000000000000 pair is duplicated.`);
  });

  it('unsorted user entries (by address, then token)', () => {
    const asset = emptyAsset();
    asset.userSubstore = [user(address(2), 1n), user(address(1), 1n)];
    expect(genesisError(asset)).toBe('UserSubstore must be sorted by address and tokenID.');
    asset.userSubstore = [user(address(1), 1n, FOREIGN), user(address(1), 1n, LSK)];
    expect(genesisError(asset)).toBe('UserSubstore must be sorted by address and tokenID.');
  });

  it('a zero locked amount', () => {
    const asset = emptyAsset();
    asset.userSubstore = [user(address(1), 1n, LSK, [{ module: 'pos', amount: 0n }])];
    expect(genesisError(asset)).toBe(`Address ${addr1} contains 0 amount locked balance.`);
  });

  it('a duplicate locked module', () => {
    const asset = emptyAsset();
    asset.userSubstore = [
      user(address(1), 1n, LSK, [
        { module: 'pos', amount: 1n },
        { module: 'pos', amount: 1n },
      ]),
    ];
    expect(genesisError(asset)).toBe(`Address ${addr1} has duplicate module in locked balances.`);
  });

  it('duplicate and unsorted supply entries', () => {
    const asset = emptyAsset();
    asset.supplySubstore = [
      { tokenID: LSK, totalSupply: 0n },
      { tokenID: LSK, totalSupply: 0n },
    ];
    expect(genesisError(asset)).toBe('Supply store token ID 0400000000000000 is duplicated.');
    asset.supplySubstore = [
      { tokenID: FOREIGN, totalSupply: 0n },
      { tokenID: LSK, totalSupply: 0n },
    ];
    expect(genesisError(asset)).toBe('SupplySubstore must be sorted by tokenID.');
  });

  it('duplicate and unsorted escrow entries', () => {
    const chain = Buffer.from('04000001', 'hex');
    const asset = emptyAsset();
    asset.escrowSubstore = [
      { escrowChainID: chain, tokenID: LSK, amount: 1n },
      { escrowChainID: chain, tokenID: LSK, amount: 1n },
    ];
    expect(genesisError(asset)).toBe('Escrow store escrowChainID 04000001 and tokenID 0400000000000000 pair is duplicated.');
    asset.escrowSubstore = [
      { escrowChainID: Buffer.from('04000002', 'hex'), tokenID: LSK, amount: 1n },
      { escrowChainID: chain, tokenID: LSK, amount: 1n },
    ];
    expect(genesisError(asset)).toBe('EscrowSubstore must be sorted by escrowChainID and tokenID.');
  });

  it('supported tokens: every check', () => {
    const chainA = Buffer.from('04000001', 'hex');
    const chainB = Buffer.from('04000002', 'hex');
    const tokenA0 = Buffer.from('0400000100000000', 'hex');
    const tokenA1 = Buffer.from('0400000100000001', 'hex');
    const asset = emptyAsset();

    asset.supportedTokensSubstore = [{ chainID: Buffer.alloc(0), supportedTokenIDs: [tokenA0] }];
    expect(genesisError(asset)).toBe('supportedTokenIds must be an empty array when all tokens are supported.');

    asset.supportedTokensSubstore = [
      { chainID: Buffer.alloc(0), supportedTokenIDs: [] },
      { chainID: chainA, supportedTokenIDs: [] },
    ];
    expect(genesisError(asset)).toBe('supportedTokensSubstore chainIDs must be of length 4.');

    // Checks run entry by entry: the order check of entry 0 fails before entry 1's length check.
    asset.supportedTokensSubstore = [
      { chainID: chainA, supportedTokenIDs: [] },
      { chainID: Buffer.alloc(0), supportedTokenIDs: [] },
    ];
    expect(genesisError(asset)).toBe('supportedTokensSubstore must be sorted by chainID.');

    asset.supportedTokensSubstore = [{ chainID: Buffer.from('040000', 'hex'), supportedTokenIDs: [] }];
    expect(genesisError(asset)).toBe('supportedTokensSubstore chainIDs must be of length 4.');

    asset.supportedTokensSubstore = [
      { chainID: chainA, supportedTokenIDs: [] },
      { chainID: chainA, supportedTokenIDs: [] },
    ];
    expect(genesisError(asset)).toBe('supportedTokenIDsSet chain ID 04000001 is duplicated.');

    asset.supportedTokensSubstore = [
      { chainID: chainB, supportedTokenIDs: [] },
      { chainID: chainA, supportedTokenIDs: [] },
    ];
    expect(genesisError(asset)).toBe('supportedTokensSubstore must be sorted by chainID.');

    const unsortedOrDuplicate = 'supportedTokensSubstore tokenIDs must be unique and sorted by lexicographically.';
    asset.supportedTokensSubstore = [{ chainID: chainA, supportedTokenIDs: [tokenA1, tokenA0] }];
    expect(genesisError(asset)).toBe(unsortedOrDuplicate);
    asset.supportedTokensSubstore = [{ chainID: chainA, supportedTokenIDs: [tokenA0, tokenA0] }];
    expect(genesisError(asset)).toBe(unsortedOrDuplicate);

    asset.supportedTokensSubstore = [{ chainID: chainB, supportedTokenIDs: [tokenA0] }];
    expect(genesisError(asset)).toBe('supportedTokensSubstore tokenIDs must match the chainID.');
  });

  it('supply consistency', () => {
    const asset = emptyAsset();
    asset.userSubstore = [user(address(1), 2n ** 64n - 1n), user(address(2), 1n)];
    asset.supplySubstore = [{ tokenID: LSK, totalSupply: 0n }];
    expect(genesisError(asset)).toBe('Total supply for tokenID: 0400000000000000 exceeds uint64 range.');

    asset.userSubstore = [user(address(1), 5n)];
    asset.supplySubstore = [{ tokenID: LSK, totalSupply: 6n }];
    expect(genesisError(asset)).toBe('Stored total supply conflicts with computed supply.');

    asset.supplySubstore = [];
    expect(genesisError(asset)).toBe('Stored total supply conflicts with computed supply.');

    // lisk-sdk tests `!stored`: a native account holding 0 never matches a stored supply of 0.
    asset.userSubstore = [user(address(1), 0n)];
    asset.supplySubstore = [{ tokenID: LSK, totalSupply: 0n }];
    expect(genesisError(asset)).toBe('Stored total supply conflicts with computed supply.');

    asset.userSubstore = [];
    asset.supplySubstore = [{ tokenID: LSK, totalSupply: 1n }];
    expect(genesisError(asset)).toBe('Stored total supply is non zero but cannot be computed.');

    // Escrowed amounts count towards their token's supply, whatever chain the token is from.
    asset.supplySubstore = [];
    asset.escrowSubstore = [{ escrowChainID: Buffer.from('04000001', 'hex'), tokenID: FOREIGN, amount: 1n }];
    expect(genesisError(asset)).toBe('Stored total supply conflicts with computed supply.');
  });
});
