/**
 * Fee metadata (chains/dev/metadata.json), config parsing with lisk-sdk's defaults and the
 * endpoints (chains/dev/final_state.json). Expected behaviour: lisk-sdk fee/module.ts (metadata,
 * init), fee/schemas.ts configSchema, fee/endpoint.ts, LIP 0048.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/errors.js';
import { FeeModule, minimumFee, parseFeeConfig } from '../../../../src/modules/fee/index.js';
import { TokenModule } from '../../../../src/modules/token/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { endpointContext } from '../auth/support.js';

const devMetadata = loadJsonFixture<{ modules: ({ name: string } & Record<string, unknown>)[] }>('chains/dev/metadata.json');
const devConfig = loadJsonFixture<{ modules: Record<string, Record<string, unknown>> }>('chains/dev/config.json');

function feeModule(moduleConfig: Record<string, unknown> = {}, chainID = testGenesisConfig.chainID): FeeModule {
  const fee = new FeeModule({ token: new TokenModule().method });
  fee.init({ genesisConfig: { ...testGenesisConfig, chainID }, moduleConfig });
  return fee;
}

describe('fee metadata', () => {
  it('equals the fee entry of chains/dev/metadata.json, key order included', () => {
    const { name, ...expected } = devMetadata.modules.find((m) => m.name === 'fee') as { name: string };
    const fee = feeModule();
    expect(name).toBe(fee.name);
    expect(fee.metadata()).toEqual(expected);
    const actual = fee.metadata() as unknown as Record<string, unknown>;
    for (const part of ['commands', 'events', 'stores', 'endpoints', 'assets']) {
      expect(JSON.stringify(actual[part])).toBe(JSON.stringify((expected as Record<string, unknown>)[part]));
    }
  });
});

describe('fee config', () => {
  it("defaults to lisk-sdk's values and the chain's native token", () => {
    expect(parseFeeConfig({}, { ...testGenesisConfig, chainID: Buffer.from('01000000', 'hex') })).toEqual({
      feeTokenID: Buffer.from('0100000000000000', 'hex'),
      minFeePerByte: 1000,
      maxBlockHeightZeroFeePerByte: 0,
    });
  });

  it('reads the dev chain config', () => {
    expect(parseFeeConfig(devConfig.modules.fee ?? {}, testGenesisConfig)).toEqual({
      feeTokenID: Buffer.from('0400000000000000', 'hex'),
      minFeePerByte: 1000,
      maxBlockHeightZeroFeePerByte: 0,
    });
  });

  it('reads a fee pool address', () => {
    const config = parseFeeConfig({ feePoolAddress: 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596' }, testGenesisConfig);
    expect(config.feePoolAddress).toEqual(Buffer.alloc(20));
  });

  it.each([
    [{ feeTokenID: '04000000' }, '.modules.fee.feeTokenID'],
    [{ feeTokenID: 'zz00000000000000' }, '.modules.fee.feeTokenID'],
    [{ feeTokenID: 4 }, '.modules.fee.feeTokenID'],
    [{ minFeePerByte: -1 }, '.modules.fee.minFeePerByte'],
    [{ minFeePerByte: '1000' }, '.modules.fee.minFeePerByte'],
    [{ minFeePerByte: 2 ** 32 }, '.modules.fee.minFeePerByte'],
    [{ maxBlockHeightZeroFeePerByte: 0.5 }, '.modules.fee.maxBlockHeightZeroFeePerByte'],
    [{ feePoolAddress: 'lsk123' }, '.modules.fee.feePoolAddress'],
    [{ feePoolAddress: 7 }, '.modules.fee.feePoolAddress'],
  ])('rejects %j', (section, path) => {
    expect(() => parseFeeConfig(section, testGenesisConfig)).toThrow(ValidationError);
    expect(() => parseFeeConfig(section, testGenesisConfig)).toThrow(path);
  });

  it('computes the minimum fee from the config', () => {
    const config = parseFeeConfig({ minFeePerByte: 7, maxBlockHeightZeroFeePerByte: 5 }, testGenesisConfig);
    expect(minimumFee(config, 4, 100)).toBe(0n);
    expect(minimumFee(config, 5, 100)).toBe(700n);
  });

  it('the method refuses use before init', () => {
    const fee = new FeeModule({ token: new TokenModule().method });
    expect(() => fee.method.getFeeTokenID()).toThrow('before init');
  });
});

describe('fee endpoints', () => {
  it('answer like final_state.json (fee_getMinFeePerByte, fee_getFeeTokenID)', () => {
    const finalState = loadJsonFixture<{ global: { method: string; params: Record<string, unknown>; result: unknown }[] }>(
      'chains/dev/final_state.json',
    );
    const calls = finalState.global.filter((call) => call.method.startsWith('fee_'));
    expect(calls.map((call) => call.method).sort()).toEqual(['fee_getFeeTokenID', 'fee_getMinFeePerByte']);
    recordCases('chains/dev/final_state.json', calls.length);
    const fee = feeModule(devConfig.modules.fee ?? {});
    const harness = new ModuleHarness();
    for (const call of calls) {
      const handler = fee.endpoints[call.method.slice('fee_'.length)];
      expect(handler?.handle(endpointContext(harness, call.params))).toEqual(call.result);
    }
  });

  it('follow the config', () => {
    const fee = feeModule({ minFeePerByte: 5, feeTokenID: '0000000100000000' });
    const harness = new ModuleHarness();
    expect(fee.endpoints.getMinFeePerByte?.handle(endpointContext(harness))).toEqual({ minFeePerByte: 5 });
    expect(fee.endpoints.getFeeTokenID?.handle(endpointContext(harness))).toEqual({ tokenID: '0000000100000000' });
    expect(fee.method.getMinFeePerByte()).toBe(5);
  });
});
