/**
 * Auth genesis: the dev chain's genesis asset and every genesis check.
 * Expected behaviour: lisk-sdk framework/src/modules/auth/module.ts initGenesisState, LIP 0041.
 */
import { describe, expect, it } from 'vitest';
import { Block } from '../../../../src/chain/block.js';
import { codec } from '../../../../src/codec/index.js';
import { ValidationError } from '../../../../src/errors.js';
import { AuthModule, type AuthAccount } from '../../../../src/modules/auth/index.js';
import type { GenesisAuthStore } from '../../../../src/modules/auth/genesis.js';
import { genesisAuthStoreSchema } from '../../../../src/modules/auth/schemas.js';
import { loadBinaryFixture, loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { sortedKeyPairs } from './support.js';

interface GenesisAssets {
  assets: { module: string; data: Record<string, unknown>; schema: Record<string, unknown> }[];
}

const devAssets = loadJsonFixture<GenesisAssets>('chains/dev/genesis_assets.json');
const devAuthAsset = devAssets.assets.find((asset) => asset.module === 'auth');

function setup(moduleConfig: Record<string, unknown> = {}) {
  const auth = new AuthModule();
  auth.init({ genesisConfig: testGenesisConfig, moduleConfig });
  return { auth, harness: new ModuleHarness({ header: { height: 0 } }) };
}

function runGenesis(entries: GenesisAuthStore['authDataSubstore'], moduleConfig: Record<string, unknown> = {}) {
  const { auth, harness } = setup(moduleConfig);
  harness.assets.set('auth', codec.encode(genesisAuthStoreSchema, { authDataSubstore: entries }));
  auth.initGenesisState(harness.genesisContext());
  return { auth, harness };
}

describe('auth genesis of chains/dev', () => {
  it('the genesis_assets.json entry uses our schema and encodes to the asset bytes of the genesis block', () => {
    expect(devAuthAsset?.schema).toEqual(genesisAuthStoreSchema);
    const block = Block.fromBytes(loadBinaryFixture('chains/dev/genesis_block.blob'));
    const assetBytes = block.assets.getAsset('auth');
    const encoded = codec.encode(genesisAuthStoreSchema, codec.fromJSON(genesisAuthStoreSchema, devAuthAsset?.data as object));
    expect(encoded).toEqual(assetBytes);
  });

  it('writes every genesis account under 3df49c3c0000 ‖ address', () => {
    const block = Block.fromBytes(loadBinaryFixture('chains/dev/genesis_block.blob'));
    const { auth, harness } = setup();
    harness.assets.set('auth', block.assets.getAsset('auth') as Buffer);
    auth.initGenesisState(harness.genesisContext());
    const genesis = codec.decode<GenesisAuthStore>(genesisAuthStoreSchema, block.assets.getAsset('auth') as Buffer);
    const changes = harness.state.changes();
    expect(changes).toHaveLength(genesis.authDataSubstore.length);
    for (const { address, authAccount } of genesis.authDataSubstore) {
      expect(auth.accounts.get(harness.state, address)).toEqual(authAccount);
    }
    // The one genesis account of the dev chain: a 2-of-3 multisignature account with nonce 3.
    expect(changes[0]?.key.toString('hex')).toBe('3df49c3c000092a5a13dc3bf75419040be8766bd7cd9ddc3c0d2');
    expect(auth.accounts.get(harness.state, hexAddress('92a5a13dc3bf75419040be8766bd7cd9ddc3c0d2'))?.nonce).toBe(3n);
    expect(harness.events.events()).toEqual([]);
  });

  it('does nothing without an auth asset', () => {
    const { auth, harness } = setup();
    auth.initGenesisState(harness.genesisContext());
    expect(harness.state.changes()).toEqual([]);
  });
});

function hexAddress(value: string): Buffer {
  return Buffer.from(value, 'hex');
}

describe('auth genesis checks', () => {
  const [k1, k2, k3] = sortedKeyPairs('g1', 'g2', 'g3').map((k) => k.publicKey) as [Buffer, Buffer, Buffer];
  const address = Buffer.alloc(20, 1);
  const account = (overrides: Partial<AuthAccount> = {}): AuthAccount => ({
    nonce: 0n,
    numberOfSignatures: 2,
    mandatoryKeys: [k1],
    optionalKeys: [k2, k3],
    ...overrides,
  });

  it('accepts valid single- and multisignature accounts', () => {
    const { auth, harness } = runGenesis([
      { address, authAccount: account() },
      { address: Buffer.alloc(20, 2), authAccount: { nonce: 9n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] } },
    ]);
    expect(auth.accounts.get(harness.state, address)).toEqual(account());
    expect(auth.accounts.get(harness.state, Buffer.alloc(20, 2))?.nonce).toBe(9n);
  });

  const cases: [string, GenesisAuthStore['authDataSubstore'], string][] = [
    ['a 19-byte address', [{ address: Buffer.alloc(19), authAccount: account() }], 'Invalid store key length for auth module.'],
    [
      'unsorted mandatory keys',
      [{ address, authAccount: account({ numberOfSignatures: 2, mandatoryKeys: [k2, k1], optionalKeys: [] }) }],
      'Invalid store value for auth module. MandatoryKeys are not sorted lexicographically.',
    ],
    [
      'duplicate mandatory keys',
      [{ address, authAccount: account({ numberOfSignatures: 2, mandatoryKeys: [k1, k1], optionalKeys: [] }) }],
      'Invalid store value for auth module. MandatoryKeys are not unique.',
    ],
    [
      'unsorted optional keys',
      [{ address, authAccount: account({ optionalKeys: [k3, k2] }) }],
      'Invalid store value for auth module. OptionalKeys are not sorted lexicographically.',
    ],
    [
      'duplicate optional keys',
      [{ address, authAccount: account({ optionalKeys: [k2, k2] }) }],
      'Invalid store value for auth module. OptionalKeys are not unique.',
    ],
    [
      'a key both mandatory and optional',
      [{ address, authAccount: account({ optionalKeys: [k1, k3].sort(Buffer.compare) }) }],
      'Invalid combination of Mandatory and Optional keys. Repeated keys across Mandatory and Optional were found.',
    ],
    [
      'more signatures required than keys',
      [{ address, authAccount: account({ numberOfSignatures: 4 }) }],
      'The numberOfSignatures is bigger than the count of Mandatory and Optional keys.',
    ],
    [
      'fewer signatures required than mandatory keys',
      [{ address, authAccount: account({ numberOfSignatures: 1, mandatoryKeys: [k1, k2], optionalKeys: [] }) }],
      'The numberOfSignatures is smaller than the count of Mandatory keys.',
    ],
    [
      'keys on a single-signature account',
      [{ address, authAccount: account({ numberOfSignatures: 0 }) }],
      'The numberOfSignatures is smaller than the count of Mandatory keys.',
    ],
    [
      'a duplicate address',
      [
        { address, authAccount: account() },
        { address, authAccount: account() },
      ],
      'Duplicate address in the for auth module.',
    ],
  ];

  it.each(cases)('rejects %s', (_, entries, message) => {
    expect(() => runGenesis(entries)).toThrow(new ValidationError([message]));
  });

  it('rejects more keys than the configured maximum', () => {
    expect(() => runGenesis([{ address, authAccount: account() }], { maxNumberOfSignatures: 2 })).toThrow(
      new ValidationError(['The count of Mandatory and Optional keys should be maximum 2.']),
    );
  });

  it('validates the account against the store schema (numberOfSignatures ≤ 64)', () => {
    expect(() => runGenesis([{ address, authAccount: account({ numberOfSignatures: 65 }) }])).toThrow(ValidationError);
  });

  it('checks entries in order: the first bad entry decides the error', () => {
    expect(() =>
      runGenesis([
        { address, authAccount: account({ optionalKeys: [k3, k2] }) },
        { address: Buffer.alloc(3), authAccount: account() },
      ]),
    ).toThrow('OptionalKeys are not sorted');
  });
});
