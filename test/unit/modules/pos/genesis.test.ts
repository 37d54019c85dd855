/**
 * Genesis processing (lisk-sdk 6.1 pos/module.ts initGenesisState / finalizeGenesisState) with
 * the real dev chain's genesis asset: the stores written, the validators' keys registered, and
 * the first validator set equal to the first BFT parameters of the real chain
 * (chains/dev/bft_parameters.json); then every lisk-sdk genesis check with its message.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { decodeLisk32, encodeLisk32 } from '../../../../src/crypto/index.js';
import {
  EMPTY_KEY,
  genesisDataStore,
  nameStore,
  previousTimestampStore,
  stakerStore,
  validatorStore,
} from '../../../../src/modules/pos/index.js';
import { validatorsParamsStore } from '../../../../src/modules/validators/stores.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import {
  devBftParameters,
  devConfig,
  encodePosGenesis,
  finalStateKV,
  genesisPosAssetBytes,
  genesisTokenAccounts,
  posGenesisJSON,
} from './dev-chain.js';
import { createPos, type PosSetup } from './pos-test-kit.js';

const GENESIS_TIMESTAMP = 1795323732;

function genesisHarness(setup: PosSetup, posAsset: Buffer, withTokens = true): ModuleHarness {
  const harness = new ModuleHarness({ header: { height: 0, timestamp: GENESIS_TIMESTAMP } });
  harness.assets.set('pos', posAsset);
  if (withTokens) {
    for (const user of genesisTokenAccounts()) {
      setup.token.setAccount(
        harness,
        user.address,
        {
          availableBalance: user.availableBalance,
          lockedBalances: user.lockedBalances,
        },
        user.tokenID,
      );
    }
  }
  return harness;
}

function runGenesis(setup: PosSetup, harness: ModuleHarness): void {
  setup.pos.initGenesisState(harness.genesisContext('init'));
  setup.pos.finalizeGenesisState(harness.genesisContext('finalize'));
}

const finalKV = new Map(finalStateKV);

describe('pos genesis with the dev chain asset', () => {
  const setup = createPos(devConfig.modules.pos, 3);
  const harness = genesisHarness(setup, genesisPosAssetBytes());
  runGenesis(setup, harness);

  it('the genesis asset JSON encodes to the bytes in the genesis block', () => {
    expect(encodePosGenesis(posGenesisJSON())).toEqual(genesisPosAssetBytes());
  });

  it('gives BFT the first validator set of the real chain: same addresses, order, weights, thresholds', () => {
    const first = devBftParameters[0];
    expect(first?.fromHeight).toBe(1);
    const next = harness.nextValidators;
    expect(next).toBeDefined();
    expect(next?.precommitThreshold.toString()).toBe(first?.params.precommitThreshold);
    expect(next?.certificateThreshold.toString()).toBe(first?.params.certificateThreshold);
    expect(next?.precommitThreshold).toBe(68n);
    expect(
      next?.validators.map((v) => ({
        address: encodeLisk32(v.address),
        bftWeight: v.bftWeight.toString(),
        blsKey: v.blsKey.toString('hex'),
      })),
    ).toEqual(first?.params.validators);
  });

  it('stores the set in the validators module with the generator keys of the asset', () => {
    const params = validatorsParamsStore.getOrThrow(harness.state, EMPTY_KEY);
    expect(params.validators).toHaveLength(101);
    const asset = posGenesisJSON();
    for (const v of params.validators) {
      const entry = asset.validators.find((a) => a.address === encodeLisk32(v.address));
      expect(v.generatorKey.toString('hex')).toBe(entry?.generatorKey);
    }
  });

  it('writes validators with the stake sums of the genesis stakers', () => {
    const asset = posGenesisJSON();
    expect(validatorStore.iterate(harness.state, { keyLength: 20 })).toHaveLength(asset.validators.length);
    // lskc22… self-stakes 500 LSK and receives 60 LSK from lskxfou….
    const c22 = validatorStore.getOrThrow(harness.state, decodeLisk32('lskc22mfaqzo722aenb6yw7awx8f22nrn54skrj8b'));
    expect(c22.selfStake).toBe(50_000_000_000n);
    expect(c22.totalStake).toBe(56_000_000_000n);
    const genesis0 = validatorStore.getOrThrow(harness.state, decodeLisk32('lskzbqjmwmd32sx8ya56saa4gk7tkco953btm24t8'));
    expect(genesis0).toMatchObject({ name: 'genesis_0', totalStake: 0n, selfStake: 0n, commission: 0, isBanned: false });
  });

  it('writes stakers as given (order of stakes and unlocks kept)', () => {
    const asset = posGenesisJSON();
    for (const staker of asset.stakers) {
      const stored = stakerStore.getOrThrow(harness.state, decodeLisk32(staker.address));
      expect(codec.toJSON(stakerStore.schema, stored)).toEqual({
        stakes: staker.stakes,
        pendingUnlocks: staker.pendingUnlocks,
      });
    }
  });

  it('writes names, the previous timestamp and genesis data; genesis data and names equal the tip state', () => {
    expect(previousTimestampStore.getOrThrow(harness.state, EMPTY_KEY)).toEqual({ timestamp: GENESIS_TIMESTAMP });
    const genesisKey = genesisDataStore.stateKey(EMPTY_KEY);
    expect(harness.state.get(genesisKey)?.toString('hex')).toBe(finalKV.get(genesisKey.toString('hex')));
    const names = nameStore.iterate(harness.state, { keyLength: 1 });
    expect(names).toHaveLength(103);
    for (const { key } of names) {
      const stateKey = nameStore.stateKey(key);
      expect(harness.state.get(stateKey)?.toString('hex')).toBe(finalKV.get(stateKey.toString('hex')));
    }
  });

  it('does not populate the eligible validators index (lisk-sdk 6.1 leaves it empty at genesis)', () => {
    const prefix = Buffer.from('7160f8686000', 'hex');
    expect(harness.state.iterate({ gte: prefix, lte: Buffer.concat([prefix, Buffer.alloc(40, 0xff)]) })).toHaveLength(0);
  });

  it('emits the validators module registration events, two per validator, under the finalize topic', () => {
    const events = harness.events.events();
    expect(events.filter((e) => e.module === 'pos')).toHaveLength(0);
    expect(events.filter((e) => e.module === 'validators')).toHaveLength(2 * 103);
    expect(events.every((e) => e.topics[0]?.equals(Buffer.from([1])))).toBe(true);
  });
});

describe('pos genesis checks (lisk-sdk 6.1 initGenesisState messages)', () => {
  type Asset = ReturnType<typeof posGenesisJSON>;
  const cases: { title: string; change: (asset: Asset) => void; error: string | RegExp; config?: Record<string, unknown> }[] = [
    {
      title: 'a name with capitals',
      change: (a) => (a.validators[0]!.name = 'Genesis_0'),
      error: 'Invalid validator name Genesis_0.',
    },
    {
      title: 'a lastCommissionIncreaseHeight above the genesis height',
      change: (a) => (a.validators[1]!.lastCommissionIncreaseHeight = 5),
      error: `Invalid lastCommissionIncreaseHeight 5 for ${posGenesisJSON().validators[1]!.address as string}.`,
    },
    {
      title: 'unsorted validator sharing coefficients',
      change: (a) =>
        (a.validators[0]!.sharingCoefficients = [
          { tokenID: '0400000000000001', coefficient: '01' },
          { tokenID: '0400000000000000', coefficient: '01' },
        ]),
      error: 'SharingCoefficients must be sorted by tokenID.',
    },
    {
      title: 'a duplicate validator address',
      change: (a) => (a.validators[1] = { ...a.validators[0]!, name: 'other_name' }),
      error: 'Validator address is not unique.',
    },
    {
      title: 'a duplicate validator name',
      change: (a) => (a.validators[1]!.name = a.validators[0]!.name),
      error: 'Validator name is not unique.',
    },
    {
      title: 'more than 10 stakes',
      change: (a) => {
        const staker = a.stakers[0]!;
        const addresses = a.validators.map((v) => decodeLisk32(v.address as string)).sort((x, y) => x.compare(y));
        staker.stakes = addresses
          .slice(0, 11)
          .map((address) => ({ validatorAddress: encodeLisk32(address), amount: '1000000000', sharingCoefficients: [] }));
      },
      error: 'Sent stake exceeds max stake 10.',
    },
    {
      title: 'a staker staking twice on one validator',
      change: (a) => a.stakers[1]!.stakes.push({ ...a.stakers[1]!.stakes[0]! }),
      error: 'Sent stake validator address is not unique.',
    },
    {
      title: 'stakes out of address order',
      change: (a) => a.stakers[0]!.stakes.reverse(),
      error: 'Sent stake validator address is not lexicographically ordered.',
    },
    {
      title: 'a stake on an unknown validator',
      change: (a) => (a.stakers[1]!.stakes[0]!.validatorAddress = 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596'),
      error: 'Sent stake includes non existing validator address.',
    },
    {
      title: 'a stake coefficient for a token the validator has none of',
      change: (a) => (a.stakers[1]!.stakes[0]!.sharingCoefficients = [{ tokenID: '0400000000000000', coefficient: '01' }]),
      error: 'Validator does not have corresponding sharing coefficient or the coefficient value is not consistent.',
    },
    {
      title: 'a stake coefficient above the validator one',
      change: (a) => {
        const validator = a.validators.find((v) => v.address === a.stakers[1]!.stakes[0]!.validatorAddress)!;
        validator.sharingCoefficients = [{ tokenID: '0400000000000000', coefficient: '05' }];
        a.stakers[1]!.stakes[0]!.sharingCoefficients = [{ tokenID: '0400000000000000', coefficient: '06' }];
      },
      error: 'Validator does not have corresponding sharing coefficient or the coefficient value is not consistent.',
    },
    {
      title: 'unsorted stake coefficients',
      change: (a) => {
        const validator = a.validators.find((v) => v.address === a.stakers[1]!.stakes[0]!.validatorAddress)!;
        const coefficients = [
          { tokenID: '0400000000000000', coefficient: '05' },
          { tokenID: '0400000000000001', coefficient: '05' },
        ];
        validator.sharingCoefficients = coefficients;
        a.stakers[1]!.stakes[0]!.sharingCoefficients = [...coefficients].reverse();
      },
      error: 'stakeSharingCoefficients must be sorted by tokenID.',
    },
    {
      title: 'more pending unlocks than maxNumberPendingUnlocks',
      config: { maxNumberPendingUnlocks: 1 },
      change: (a) => a.stakers[0]!.pendingUnlocks.push({ ...a.stakers[0]!.pendingUnlocks[0]!, unstakeHeight: 0, amount: '1' }),
      error: 'PendingUnlocks exceeds max unlocking 1.',
    },
    {
      title: 'pending unlocks out of order (amounts must descend)',
      change: (a) => a.stakers[0]!.pendingUnlocks.push({ ...a.stakers[0]!.pendingUnlocks[0]!, amount: '99000000000' }),
      error: 'PendingUnlocks are not lexicographically ordered.',
    },
    {
      title: 'a pending unlock of an unknown validator',
      change: (a) => (a.stakers[0]!.pendingUnlocks[0]!.validatorAddress = 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596'),
      error: 'Pending unlocks includes non existing validator address.',
    },
    {
      title: 'a duplicate staker',
      change: (a) => a.stakers.push(a.stakers[1]!),
      error: 'Staker address is not unique.',
    },
    {
      title: 'a duplicate init validator',
      change: (a) => (a.genesisData.initValidators[1] = a.genesisData.initValidators[0]!),
      error: 'Init validators address is not unique.',
    },
    {
      title: 'an unknown init validator',
      change: (a) => (a.genesisData.initValidators[0] = 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596'),
      error: 'Init validators includes non existing validator address.',
    },
    {
      title: 'more init validators than active validators',
      config: { numberActiveValidators: 100 },
      change: () => undefined,
      error: 'Init validators is greater than number of active validators 100.',
    },
    {
      title: 'a name longer than 20 characters (schema)',
      change: (a) => (a.validators[0]!.name = 'a'.repeat(21)),
      error: /name/,
    },
  ];

  for (const { title, change, error, config } of cases) {
    it(`rejects ${title}`, () => {
      const asset = posGenesisJSON();
      change(asset);
      const setup = createPos({ ...devConfig.modules.pos, ...config }, 3);
      const harness = genesisHarness(setup, encodePosGenesis(asset));
      expect(() => setup.pos.initGenesisState(harness.genesisContext('init'))).toThrow(error);
    });
  }

  it('rejects staked amounts that are not locked in the token module (finalize)', () => {
    const setup = createPos(devConfig.modules.pos, 3);
    const harness = genesisHarness(setup, genesisPosAssetBytes(), false);
    setup.pos.initGenesisState(harness.genesisContext('init'));
    expect(() => setup.pos.finalizeGenesisState(harness.genesisContext('finalize'))).toThrow('Staked amount is not locked');
  });

  it('does nothing without a pos asset', () => {
    const setup = createPos(devConfig.modules.pos, 3);
    const harness = new ModuleHarness({ header: { height: 0 } });
    runGenesis(setup, harness);
    expect(harness.state.changes()).toHaveLength(0);
    expect(harness.nextValidators).toBeUndefined();
  });

  it('registers validators without BLS keys on a mainchain with useInvalidBLSKey', () => {
    const setup = createPos({ ...devConfig.modules.pos, useInvalidBLSKey: true }, 3);
    const harness = genesisHarness(setup, genesisPosAssetBytes());
    runGenesis(setup, harness);
    const bls = harness.nextValidators?.validators.map((v) => v.blsKey.toString('hex'));
    expect(new Set(bls)).toEqual(new Set(['00'.repeat(48)]));
    expect(harness.events.events().filter((e) => e.name === 'blsKeyRegistration')).toHaveLength(0);
  });

  it('computes thresholds ⌊2n/3⌋+1 over init validators sorted by address', () => {
    const asset = posGenesisJSON();
    asset.genesisData.initValidators = asset.genesisData.initValidators.slice(0, 10).reverse();
    const setup = createPos(devConfig.modules.pos, 3);
    const harness = genesisHarness(setup, encodePosGenesis(asset));
    runGenesis(setup, harness);
    expect(harness.nextValidators?.precommitThreshold).toBe(7n);
    const addresses = harness.nextValidators?.validators.map((v) => v.address) ?? [];
    expect(addresses).toEqual([...addresses].sort((x, y) => x.compare(y)));
    expect(addresses).toHaveLength(10);
    // The stored genesis data keeps the asset's order.
    expect(genesisDataStore.getOrThrow(harness.state, EMPTY_KEY).initValidators.map(encodeLisk32)).toEqual(
      asset.genesisData.initValidators,
    );
  });
});
