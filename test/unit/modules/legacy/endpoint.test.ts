/**
 * `legacy_getLegacyAccount` (lisk-core legacy/endpoint.ts, its endpoint.spec.ts)
 * over the devnet legacy genesis state.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/errors.js';
import { silentLogger } from '../../../../src/logger.js';
import { LEGACY_MODULE_NAME } from '../../../../src/modules/legacy/index.js';
import type { StateReader } from '../../../../src/state/state-view.js';
import { makeHeader, ModuleHarness } from '../../../support/module-harness.js';
import { createLegacyWorld, DEVNET_CHAIN_ID, devnetGenesisBlock, devValidators, type LegacyWorld } from './legacy-test-kit.js';

describe('legacy getLegacyAccount', () => {
  let world: LegacyWorld;
  let state: StateReader;

  beforeAll(() => {
    world = createLegacyWorld();
    const block = devnetGenesisBlock();
    const harness = new ModuleHarness({ header: { height: 0 } });
    harness.assets.set('token', block.assets.getAsset('token')!);
    harness.assets.set(LEGACY_MODULE_NAME, block.assets.getAsset(LEGACY_MODULE_NAME)!);
    world.modules.token.initGenesisState(harness.genesisContext());
    world.legacy.initGenesisState(harness.genesisContext());
    state = harness.state;
  });

  const call = (params: Record<string, unknown>): unknown =>
    world.legacy.endpoints.getLegacyAccount!.handle({
      state,
      chainID: DEVNET_CHAIN_ID,
      logger: silentLogger,
      header: makeHeader(),
      params,
    });

  it('answers the legacy address and balance of a known legacy key', () => {
    // The legacy key of the first account of lisk-core's test/config/known_legacy_accounts_devnet.json.
    expect(call({ publicKey: '86cbecb2a176934e454f63e7ffa05783be6960d90002c5558dfd31397cd8f020' })).toEqual({
      legacyAddress: '06cbc1b95358dd27',
      balance: '6800000000',
    });
    // The second one.
    expect(call({ publicKey: 'b1609d9e11eb33cc6104bcd49acdf9f9261daf6be5851e1354f7c07d1b8ad394' })).toEqual({
      legacyAddress: '218e5228aae80a42',
      balance: '15100000000',
    });
  });

  it('answers balance "0" (not an error) for a key without a legacy account', () => {
    const result = call({ publicKey: devValidators()[0]!.publicKey }) as { legacyAddress: string; balance: string };
    expect(result.balance).toBe('0');
    expect(result.legacyAddress).toMatch(/^[0-9a-f]{16}$/);
    // The empty string is valid hex: sha256("") = e3b0c44298fc1c14…, first 8 bytes reversed.
    expect(call({ publicKey: '' })).toEqual({ legacyAddress: '141cfc9842c4b0e3', balance: '0' });
  });

  it('answers in lisk-core key order: legacyAddress, then balance', () => {
    expect(Object.keys(call({ publicKey: '00' }) as object)).toEqual(['legacyAddress', 'balance']);
  });

  it('refuses params outside the request schema', () => {
    for (const params of [{}, { publicKey: 'abc' }, { publicKey: 'zz' }, { publicKey: 12 }]) {
      expect(() => call(params)).toThrow(ValidationError);
    }
  });
});
