/**
 * initGenesisState of the legacy module (lisk-core legacy/module.ts initGenesisState; its
 * test/application/modules/legacy/module.spec.ts): every check in lisk-core's order, against the
 * REAL token module's state (the lock lisk-core reads with TokenMethod.getLockedAmount).
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { DecodeError, ValidationError } from '../../../../src/errors.js';
import { genesisLegacyStoreSchema, legacyAccountStore, LEGACY_MODULE_NAME } from '../../../../src/modules/legacy/index.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { createLegacyWorld, devnetGenesisBlock, encodeAsset, type LegacyWorld } from './legacy-test-kit.js';

const RESERVE_LISK32 = 'lskz5kn2akhood3cgpaf6a95ra85xfa9fhokvx4du';
const MAX_UINT64 = 2n ** 64n - 1n;

/** A token genesis asset whose only account is the reserve, with the given locks on token `tokenID`. */
function reserveTokenAsset(locks: { module: string; amount: bigint }[], tokenID = '0400000000000000'): Buffer {
  const total = locks.reduce((sum, lock) => sum + lock.amount, 0n);
  return encodeAsset('token', {
    userSubstore: [
      {
        address: RESERVE_LISK32,
        tokenID,
        availableBalance: '0',
        lockedBalances: locks.map((lock) => ({ module: lock.module, amount: lock.amount.toString() })),
      },
    ],
    supplySubstore: [{ tokenID, totalSupply: total.toString() }],
    escrowSubstore: [],
    supportedTokensSubstore: [],
  });
}

function legacyAsset(accounts: { address: Buffer; balance: bigint }[]): Buffer {
  return codec.encode(genesisLegacyStoreSchema, { accounts });
}

function address(byte: number, length = 8): Buffer {
  return Buffer.alloc(length, byte);
}

/** Runs token's then legacy's initGenesisState (lisk-core registers legacy after token). */
function runGenesis(assets: { token?: Buffer; legacy?: Buffer }, world: LegacyWorld = createLegacyWorld()): ModuleHarness {
  const harness = new ModuleHarness({ header: { height: 0 } });
  if (assets.token !== undefined) harness.assets.set('token', assets.token);
  if (assets.legacy !== undefined) harness.assets.set(LEGACY_MODULE_NAME, assets.legacy);
  const context = harness.genesisContext();
  world.modules.token.initGenesisState(context);
  world.legacy.initGenesisState(context);
  return harness;
}

function storedAccounts(harness: ModuleHarness): { address: string; balance: bigint }[] {
  return legacyAccountStore
    .iterate(harness.state, { keyLength: 8 })
    .map((entry) => ({ address: entry.key.toString('hex'), balance: entry.value.balance }));
}

function expectValidationError(run: () => unknown, message: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  expect((caught as Error).message).toBe(message);
}

describe('legacy initGenesisState', () => {
  it('accepts the devnet token and legacy assets of the real genesis block', () => {
    const block = devnetGenesisBlock();
    const harness = runGenesis({ token: block.assets.getAsset('token'), legacy: block.assets.getAsset(LEGACY_MODULE_NAME) });
    const stored = storedAccounts(harness);
    expect(stored).toHaveLength(30);
    expect(stored[0]).toEqual({ address: '06cbc1b95358dd27', balance: 6_800_000_000n });
    expect(stored[29]).toEqual({ address: 'f077fa9b1784ad20', balance: 16_300_000_000n });
    // Genesis emits no legacy event.
    expect(harness.events.events().filter((event) => event.module === LEGACY_MODULE_NAME)).toEqual([]);
  });

  it('does nothing without a legacy asset, whatever the token state', () => {
    const harness = runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: 5n }]) });
    expect(storedAccounts(harness)).toEqual([]);
  });

  it('accepts an empty account list when nothing is locked (no reserve account at all)', () => {
    const harness = runGenesis({ legacy: legacyAsset([]) });
    expect(storedAccounts(harness)).toEqual([]);
  });

  it('rejects bytes that do not decode', () => {
    expect(() => runGenesis({ legacy: Buffer.from('0a03ffff', 'hex') })).toThrow(DecodeError);
  });

  it('rejects an address that is not 8 bytes (schema check, before any other)', () => {
    for (const length of [7, 9, 20]) {
      const bytes = legacyAsset([{ address: address(1, length), balance: 5n }]);
      expect(() => runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: 5n }]), legacy: bytes })).toThrow(ValidationError);
    }
  });

  it('rejects duplicate addresses, even when the sum matches the lock', () => {
    const bytes = legacyAsset([
      { address: address(1), balance: 5n },
      { address: address(2), balance: 6n },
      { address: address(1), balance: 7n },
    ]);
    expectValidationError(
      () => runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: 18n }]), legacy: bytes }),
      'Legacy address entries are not pair-wise distinct',
    );
  });

  it('rejects a total balance of 2^64 or more', () => {
    const bytes = legacyAsset([
      { address: address(1), balance: MAX_UINT64 },
      { address: address(2), balance: 1n },
    ]);
    expectValidationError(
      () => runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: MAX_UINT64 }]), legacy: bytes }),
      'Total balance for all legacy accounts cannot exceed 2^64',
    );
  });

  it('accepts a total of exactly 2^64 - 1 when that much is locked', () => {
    const bytes = legacyAsset([
      { address: address(1), balance: MAX_UINT64 - 10n },
      { address: address(2), balance: 10n },
    ]);
    const harness = runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: MAX_UINT64 }]), legacy: bytes });
    expect(storedAccounts(harness)).toEqual([
      { address: '0101010101010101', balance: MAX_UINT64 - 10n },
      { address: '0202020202020202', balance: 10n },
    ]);
  });

  it('rejects a total that differs from the locked amount', () => {
    const bytes = legacyAsset([{ address: address(1), balance: 100n }]);
    const message = 'Total balance for all legacy accounts is not equal to locked amount';
    expectValidationError(() => runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: 99n }]), legacy: bytes }), message);
    expectValidationError(() => runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: 101n }]), legacy: bytes }), message);
    // No token state at all: the locked amount reads as 0.
    expectValidationError(() => runGenesis({ legacy: bytes }), message);
  });

  it('counts only the lock of module "legacy" on tokenIDReclaim', () => {
    const bytes = legacyAsset([{ address: address(1), balance: 100n }]);
    const message = 'Total balance for all legacy accounts is not equal to locked amount';
    // Locked under another module.
    expectValidationError(() => runGenesis({ token: reserveTokenAsset([{ module: 'pos', amount: 100n }]), legacy: bytes }), message);
    // Locked in another token of the chain.
    expectValidationError(
      () => runGenesis({ token: reserveTokenAsset([{ module: 'legacy', amount: 100n }], '0400000000000001'), legacy: bytes }),
      message,
    );
    // Other locks next to the legacy one do not count.
    const harness = runGenesis({
      token: reserveTokenAsset([
        { module: 'legacy', amount: 100n },
        { module: 'pos', amount: 7n },
      ]),
      legacy: bytes,
    });
    expect(storedAccounts(harness)).toEqual([{ address: '0101010101010101', balance: 100n }]);
  });

  it('reads the lock in the token whose chain part is the own chain ID, whatever the configured chain part', () => {
    const bytes = legacyAsset([{ address: address(1), balance: 100n }]);
    const token = reserveTokenAsset([{ module: 'legacy', amount: 100n }]);
    // Testnet's tokenIDReclaim in a devnet config still means 0400000000000000 here.
    const testnetStyle = createLegacyWorld({ legacy: { tokenIDReclaim: '0100000000000000' } });
    expect(storedAccounts(runGenesis({ token, legacy: bytes }, testnetStyle))).toHaveLength(1);
    // Another local ID means another token: nothing locked there.
    const otherLocalID = createLegacyWorld({ legacy: { tokenIDReclaim: '0400000000000001' } });
    expectValidationError(
      () => runGenesis({ token, legacy: bytes }, otherLocalID),
      'Total balance for all legacy accounts is not equal to locked amount',
    );
  });
});
