/**
 * ValidatorsModule shape and endpoints: metadata equals the real node's `system_getMetadata`
 * entry (chains/dev/metadata.json); endpoints behave as lisk-sdk validators/endpoint.ts.
 */
import { describe, expect, it } from 'vitest';
import { encodeLisk32 } from '../../../../src/crypto/index.js';
import { silentLogger } from '../../../../src/logger.js';
import type { EndpointHandler, Module } from '../../../../src/modules/base/index.js';
import { ValidatorsModule } from '../../../../src/modules/validators/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { makeHeader, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { genesisValidators, type GenesisValidatorKeys } from './keys.js';

const [alice, bob] = genesisValidators() as [GenesisValidatorKeys, GenesisValidatorKeys];

function call(handler: EndpointHandler | undefined, harness: ModuleHarness, params: Record<string, unknown>): unknown {
  if (handler === undefined) throw new Error('no such endpoint');
  return handler.handle({
    state: harness.state,
    chainID: testGenesisConfig.chainID,
    logger: silentLogger,
    header: makeHeader(),
    params,
  });
}

describe('ValidatorsModule', () => {
  it('has the metadata of the real node (stores 66d18af4 0000/8000/4000, two events, two endpoints)', () => {
    const { modules } = loadJsonFixture<{ modules: ({ name: string } & Record<string, unknown>)[] }>('chains/dev/metadata.json');
    const { name, ...expected } = modules.find((entry) => entry.name === 'validators') ?? { name: '' };
    const module = new ValidatorsModule();
    expect(module.name).toBe(name);
    expect(JSON.parse(JSON.stringify(module.metadata()))).toEqual(expected);
    // Same key order too: the serialized answer is byte-identical once the app appends `name`.
    expect(JSON.stringify({ ...module.metadata(), name })).toBe(JSON.stringify({ ...expected, name }));
    expect(module.metadata().stores.map((store) => store.key)).toEqual(['66d18af40000', '66d18af48000', '66d18af44000']);
  });

  it('has no commands, hooks or genesis asset; its endpoints are public', () => {
    const module = new ValidatorsModule();
    expect(module.commands).toEqual([]);
    expect((module as Module).genesisAssetSchema).toBeUndefined();
    // Its genesis state comes from the pos asset (see chain.test.ts), never an asset of its own.
    const { assets } = loadJsonFixture<{ assets: { module: string }[] }>('chains/dev/genesis_assets.json');
    expect(assets.map((asset) => asset.module)).not.toContain('validators');
    expect(Object.keys(module.endpoints)).toEqual(['validateBLSKey', 'getValidator']);
    expect(Object.values(module.endpoints).some((handler) => handler.sensitive)).toBe(false);
  });
});

describe('validators_validateBLSKey', () => {
  it('is valid for an unregistered key with its proof, invalid with another proof or once registered', async () => {
    const module = new ValidatorsModule();
    module.init({ genesisConfig: testGenesisConfig, moduleConfig: {} });
    const harness = new ModuleHarness();
    const endpoint = module.endpoints.validateBLSKey;
    const params = (v: GenesisValidatorKeys, proof: Buffer) => ({
      blsKey: v.blsKey.toString('hex'),
      proofOfPossession: proof.toString('hex'),
    });
    expect(await call(endpoint, harness, params(alice, alice.proofOfPossession))).toEqual({ valid: true });
    expect(await call(endpoint, harness, params(alice, bob.proofOfPossession))).toEqual({ valid: false });
    expect(await call(endpoint, harness, { blsKey: '00'.repeat(48), proofOfPossession: '00'.repeat(96) })).toEqual({
      valid: false,
    });
    module.method.registerValidatorKeys(
      { state: harness.state, events: harness.events, contextStore: harness.contextStore },
      alice.address,
      alice.blsKey,
      alice.generatorKey,
      alice.proofOfPossession,
    );
    expect(await call(endpoint, harness, params(alice, alice.proofOfPossession))).toEqual({ valid: false });
  });
});

describe('validators_getValidator', () => {
  it('returns hex keys of a validator and empty strings for any other address', () => {
    const module = new ValidatorsModule();
    const harness = new ModuleHarness();
    const endpoint = module.endpoints.getValidator;
    module.method.registerValidatorWithoutBLSKey(
      { state: harness.state, events: harness.events, contextStore: harness.contextStore },
      alice.address,
      alice.generatorKey,
    );
    expect(call(endpoint, harness, { address: alice.lisk32 })).toEqual({
      generatorKey: alice.generatorKey.toString('hex'),
      blsKey: '00'.repeat(48),
    });
    expect(call(endpoint, harness, { address: encodeLisk32(Buffer.alloc(20)) })).toEqual({
      generatorKey: '',
      blsKey: '',
    });
  });
});
