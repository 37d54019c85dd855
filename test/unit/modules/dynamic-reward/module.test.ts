/**
 * DynamicRewardModule hooks, events, metadata and endpoints. Expected behaviour: lisk-sdk
 * framework/src/modules/dynamic_reward/module.ts and endpoint.ts, LIP 0071.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { encodeLisk32 } from '../../../../src/crypto/lisk32.js';
import { InvalidParamsError } from '../../../../src/errors.js';
import { silentLogger } from '../../../../src/logger.js';
import type { EndpointContext } from '../../../../src/modules/base/index.js';
import { DynamicRewardModule, endOfRoundTimestampStore, EMPTY_KEY } from '../../../../src/modules/dynamic-reward/index.js';
import { ValidatorsMethod, validatorsParamsStore } from '../../../../src/modules/validators/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { DEV_CHAIN_ID, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { InTestPos, InTestRandom, InTestToken, randomAsset } from './in-test-deps.js';

const T0 = 1_700_000_000;
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
const A = Buffer.alloc(20, 0xaa); // weight 2
const B = Buffer.alloc(20, 0xbb); // weight 1
const C = Buffer.alloc(20, 0xcc); // weight 0 (in the set, not active)
const NO_ACCOUNT = Buffer.alloc(20, 0xdd); // weight 1, no token account

interface MetadataFile {
  modules: { name: string }[];
}

function setup(options: { roundLength?: number; blockTime?: number } = {}) {
  const calls: string[] = [];
  const token = new InTestToken(calls);
  const random = new InTestRandom();
  const pos = new InTestPos(calls, options.roundLength ?? 103);
  const validators = new ValidatorsMethod();
  const blockTime = options.blockTime ?? testGenesisConfig.blockTime;
  validators.init({ blockTime });
  const module = new DynamicRewardModule({ token, random, validators, pos });
  module.init({ genesisConfig: { ...testGenesisConfig, blockTime }, moduleConfig: { offset: 20, distance: 200 } });

  const harness = new ModuleHarness({ header: { height: 0, timestamp: T0 } });
  module.initGenesisState(harness.genesisContext());
  validatorsParamsStore.set(harness.state, Buffer.alloc(0), {
    preCommitThreshold: 3n,
    certificateThreshold: 3n,
    validators: [
      [A, 2n],
      [B, 1n],
      [C, 0n],
      [NO_ACCOUNT, 1n],
    ].map(([address, bftWeight]) => ({
      address: address as Buffer,
      bftWeight: bftWeight as bigint,
      generatorKey: Buffer.alloc(32),
      blsKey: Buffer.alloc(48),
    })),
  });
  for (const address of [A, B, C]) token.createAccount(harness.genesisContext(), address, TOKEN_ID);
  harness.commit({ height: 100, timestamp: T0 + 10, generatorAddress: A });
  harness.assets.set('random', randomAsset(Buffer.alloc(16, 1)));
  calls.length = 0;
  return { module, harness, calls, token, random, pos };
}

/** Runs dynamicReward's two block hooks; returns the events of the block as hex. */
function runBlock(module: DynamicRewardModule, harness: ModuleHarness) {
  module.beforeTransactionsExecute(harness.blockExecuteContext('before'));
  module.afterTransactionsExecute(harness.blockExecuteContext('after'));
  return harness.events.events().map((event) => ({
    module: event.module,
    name: event.name,
    data: event.data.toString('hex'),
    topics: event.topics.map((topic) => topic.toString('hex')),
  }));
}

function rewardMinted(data: string, generator: Buffer) {
  return { module: 'dynamicReward', name: 'rewardMinted', data, topics: ['03', generator.toString('hex')] };
}

function endpointContext(harness: ModuleHarness, params: Record<string, unknown>): EndpointContext {
  return { state: harness.state, chainID: DEV_CHAIN_ID, logger: silentLogger, header: harness.header, params };
}

describe('DynamicRewardModule metadata', () => {
  it('equals the dynamicReward entry of the dev chain system_getMetadata', () => {
    const metadata = loadJsonFixture<MetadataFile>('chains/dev/metadata.json');
    const expected = metadata.modules.find((entry) => entry.name === 'dynamicReward');
    expect({ ...setup().module.metadata(), name: 'dynamicReward' }).toEqual(expected);
  });
});

describe('DynamicRewardModule genesis', () => {
  it('stores the genesis timestamp as the first end-of-round timestamp under 054253ec0000', () => {
    const { harness } = setup();
    expect(endOfRoundTimestampStore.stateKey(EMPTY_KEY).toString('hex')).toBe('054253ec0000');
    expect(endOfRoundTimestampStore.get(harness.state, EMPTY_KEY)).toEqual({ timestamp: T0 });
    // uint32 field 1 = T0
    expect(harness.base.get(Buffer.from('054253ec0000', 'hex'))?.toString('hex')).toBe('0880e2cfaa06');
  });
});

describe('DynamicRewardModule block reward (LIP 0071)', () => {
  let ctx: ReturnType<typeof setup>;
  beforeEach(() => {
    ctx = setup();
  });

  it('pays an active generator the minimal reward plus its weight share, minting then sharing', () => {
    // default 5 LSK; minimal 0.5 LSK; pool 3 active × 4.5 LSK = 13.5 LSK; A: 0.5 + 2 × 13.5 / 4 LSK
    const events = runBlock(ctx.module, ctx.harness);
    expect(events).toEqual([
      {
        module: 'token',
        name: 'mint',
        data: `0a14${A.toString('hex')}1208040000000000000018c0bedad9022000`,
        topics: ['03', A.toString('hex')],
      },
      rewardMinted('08c0bedad9021000', A),
    ]);
    expect(ctx.calls).toEqual([
      'token.userSubstoreExists',
      'token.mint 725000000',
      `pos.updateSharedRewards ${A.toString('hex')} 0400000000000000 725000000`,
      'pos.isEndOfRound 100',
    ]);
    expect(ctx.token.balance(ctx.harness, A, TOKEN_ID)).toBe(725000000n);
  });

  it('pays the weight-1 generator its smaller share and a zero-weight generator the default reward', () => {
    ctx.harness.header = { ...ctx.harness.header, generatorAddress: B };
    expect(runBlock(ctx.module, ctx.harness).at(-1)).toEqual(rewardMinted('08e08fe3b8011000', B)); // 387500000
    ctx.harness.commit({ generatorAddress: C });
    expect(runBlock(ctx.module, ctx.harness).at(-1)).toEqual(rewardMinted('0880cab5ee011000', C)); // 500000000
  });

  it('forfeits the reward for an invalid seed reveal (reduction 1) without touching token or pos', () => {
    ctx.random.recordReveal(A, sha256(Buffer.alloc(16, 7)).subarray(0, 16));
    expect(runBlock(ctx.module, ctx.harness)).toEqual([rewardMinted('08001001', A)]);
    expect(ctx.calls).toEqual(['pos.isEndOfRound 100']);
  });

  it('accepts a seed reveal that hashes to the previous one', () => {
    const seed = Buffer.alloc(16, 7);
    ctx.random.recordReveal(A, sha256(seed).subarray(0, 16));
    ctx.harness.assets.set('random', randomAsset(seed));
    expect(runBlock(ctx.module, ctx.harness).at(-1)).toEqual(rewardMinted('08c0bedad9021000', A));
  });

  it('divides the reward by rewardReductionFactorBFT without maximal prevotes (reduction 2)', () => {
    ctx.harness.header = { ...ctx.harness.header, impliesMaxPrevotes: false };
    // 725000000 / 4
    expect(runBlock(ctx.module, ctx.harness).at(-1)).toEqual(rewardMinted('08d0cfb6561002', A));
    expect(ctx.token.balance(ctx.harness, A, TOKEN_ID)).toBe(181250000n);
  });

  it('checks the seed reveal before the prevotes', () => {
    ctx.random.recordReveal(A, Buffer.alloc(16));
    ctx.harness.header = { ...ctx.harness.header, impliesMaxPrevotes: false };
    expect(runBlock(ctx.module, ctx.harness)).toEqual([rewardMinted('08001001', A)]);
  });

  it('mints nothing to a generator without a token account (reduction 3)', () => {
    ctx.harness.header = { ...ctx.harness.header, generatorAddress: NO_ACCOUNT, impliesMaxPrevotes: false };
    expect(runBlock(ctx.module, ctx.harness)).toEqual([rewardMinted('08001003', NO_ACCOUNT)]);
    expect(ctx.calls).toEqual(['token.userSubstoreExists', 'pos.isEndOfRound 100']);
  });

  it('pays nothing before the offset but still checks the seed reveal', () => {
    ctx.harness.header = { ...ctx.harness.header, height: 19 };
    expect(runBlock(ctx.module, ctx.harness)).toEqual([rewardMinted('08001000', A)]);
    expect(ctx.calls).toEqual(['pos.isEndOfRound 19']);
    ctx.harness.assets.delete('random');
    expect(() => ctx.module.beforeTransactionsExecute(ctx.harness.blockExecuteContext('before'))).toThrow('Block asset is missing.');
  });

  it('pays only the minimal reward once a round worth of validators had slots since the last round end', () => {
    const small = setup({ roundLength: 4 });
    // 99 empty slots between the stored timestamp and this block: every one of the 4 validators had one.
    small.harness.header = { ...small.harness.header, timestamp: T0 + 1000 };
    expect(runBlock(small.module, small.harness).at(-1)).toEqual(rewardMinted('0880e1eb171000', A)); // 50000000
  });

  it('records the block timestamp at the end of a round only', () => {
    ctx.harness.header = { ...ctx.harness.header, height: 102, timestamp: T0 + 20 };
    runBlock(ctx.module, ctx.harness);
    expect(endOfRoundTimestampStore.get(ctx.harness.state, EMPTY_KEY)).toEqual({ timestamp: T0 });
    ctx.harness.commit({ height: 103, timestamp: T0 + 30 });
    runBlock(ctx.module, ctx.harness);
    expect(endOfRoundTimestampStore.get(ctx.harness.state, EMPTY_KEY)).toEqual({ timestamp: T0 + 30 });
  });

  it('refuses a generator outside the validator set', () => {
    ctx.harness.header = { ...ctx.harness.header, generatorAddress: Buffer.alloc(20, 0xee) };
    expect(() => ctx.module.beforeTransactionsExecute(ctx.harness.blockExecuteContext('before'))).toThrow(
      'Invalid generator. Validator params does not include the validator.',
    );
  });

  it('refuses a block older than the last end of round (validators getGeneratorsBetweenTimestamps)', () => {
    ctx.harness.header = { ...ctx.harness.header, timestamp: T0 - 10 };
    expect(() => ctx.module.beforeTransactionsExecute(ctx.harness.blockExecuteContext('before'))).toThrow(
      'End timestamp must be greater than or equal to start timestamp.',
    );
  });

  it('reads a missing context-store reward as 0 (lisk-sdk getContextStoreBigInt)', () => {
    ctx.module.afterTransactionsExecute(ctx.harness.blockExecuteContext('after'));
    expect(ctx.harness.events.events().map((event) => event.data.toString('hex'))).toEqual(['08001000']);
  });
});

describe('DynamicRewardModule endpoints', () => {
  it('answers getDefaultRewardAtHeight, getAnnualInflation and getRewardTokenID like the dev chain node', () => {
    // The dev chain runs with blockTime 3.
    const { module, harness } = setup({ blockTime: 3 });
    const finalState = loadJsonFixture<{ global: { method: string; params: Record<string, unknown>; result: unknown }[] }>(
      'chains/dev/final_state.json',
    );
    const answers = finalState.global.filter((entry) => entry.method.startsWith('dynamicReward_'));
    expect(answers.length).toBe(4);
    for (const { method, params, result } of answers) {
      const handler = module.endpoints[method.slice('dynamicReward_'.length)];
      expect(handler, method).toBeDefined();
      expect(handler!.handle(endpointContext(harness, params))).toEqual(result);
    }
  });

  it('refuses a height that is not a number or negative', () => {
    const { module, harness } = setup();
    const handler = module.endpoints.getDefaultRewardAtHeight!;
    expect(() => handler.handle(endpointContext(harness, { height: '1' }))).toThrow(InvalidParamsError);
    expect(() => handler.handle(endpointContext(harness, { height: -1 }))).toThrow('Parameter height cannot be smaller than 0.');
  });

  it('computes getExpectedValidatorRewards from the tip height and the validator set', () => {
    const { module, harness } = setup();
    const handler = module.endpoints.getExpectedValidatorRewards!;
    const ask = (address: Buffer) => handler.handle(endpointContext(harness, { validatorAddress: encodeLisk32(address) }));
    // 725000000 per block, one block per round of 103 × 10 s: 703883 beddows per second.
    expect(ask(A)).toEqual({
      blockReward: '725000000',
      dailyReward: '60815491200',
      monthlyReward: '1824464736000',
      yearlyReward: '22197654288000',
    });
    expect(ask(C)).toEqual({
      blockReward: '500000000',
      dailyReward: '41941670400',
      monthlyReward: '1258250112000',
      yearlyReward: '15308709696000',
    });
    expect(ask(Buffer.alloc(20, 0x11))).toEqual({ blockReward: '0', dailyReward: '0', monthlyReward: '0', yearlyReward: '0' });
    expect(() => handler.handle(endpointContext(harness, { validatorAddress: 'lsk123' }))).toThrow(InvalidParamsError);
  });

  it('exposes getDefaultRewardAtHeight as a method', () => {
    const { module, harness } = setup();
    expect(module.method.getDefaultRewardAtHeight(harness, 219)).toBe(500000000n);
    expect(module.method.getDefaultRewardAtHeight(harness, 220)).toBe(400000000n);
  });
});
