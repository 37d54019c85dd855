/**
 * The interoperability_* and token_* endpoints over the tip state of each chain of the real
 * lisk-sdk 6.1 interop pair (final_state_kv.json), against the answers the reference nodes gave
 * there (final_state.json): cross-chain accounts, channels, terminated accounts, escrows and
 * supported tokens of a mainchain and of a sidechain, without replaying the blocks.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/logger.js';
import { moduleMetadata, type EndpointHandler, type ModuleMetadata } from '../../../../src/modules/base/index.js';
import { createInteroperabilityEndpoints } from '../../../../src/modules/interoperability/endpoint.js';
import { TokenModule } from '../../../../src/modules/token/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { interopChainConfig, interopFinalState, interopTipState, type InteropChainName } from '../../../support/interop-chain.js';
import { makeHeader } from '../../../support/module-harness.js';
import { compareRecordedCalls } from '../../../support/recorded-calls.js';

const NAMESPACES = ['interoperability', 'token'];

describe.each([
  ['mainchain', 60],
  ['sidechain', 50],
] as [InteropChainName, number][])('interoperability and token endpoints at the %s tip', (name, minimumCompared) => {
  it('answer every recorded call as lisk-sdk did', async () => {
    const config = interopChainConfig(name);
    const { chainID } = config.genesis;
    const token = new TokenModule();
    token.init({ genesisConfig: config.genesis, moduleConfig: config.modules.token ?? {} });
    const endpoints: Record<string, Readonly<Record<string, EndpointHandler>>> = {
      interoperability: createInteroperabilityEndpoints(name),
      token: token.endpoints,
    };
    const state = interopTipState(name);
    const final = interopFinalState(name);
    const calls = [...Object.values(final.perAddress).flat(), ...final.global, ...Object.values(final.perChainID).flat()];
    const { mismatches, compared } = await compareRecordedCalls(
      calls,
      (namespace, method) => endpoints[namespace]?.[method],
      (params) => ({ state, chainID, logger: silentLogger, header: makeHeader({ height: final.tip.height }), params }),
      (method) => NAMESPACES.includes(method.split('_')[0] as string),
    );
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(minimumCompared);
    recordCases(`chains/interop-dev/${name}/final_state.json#tip-state`, compared);
  });

  it('list the endpoints with the schemas and in the order of the reference metadata', () => {
    const metadata = loadJsonFixture<{ modules: (ModuleMetadata & { name: string })[] }>(`chains/interop-dev/${name}/metadata.json`);
    const expected = metadata.modules.find((module) => module.name === 'interoperability')?.endpoints;
    const endpoints = createInteroperabilityEndpoints(name);
    expect(moduleMetadata({ commands: [], events: [], stores: [], endpoints }, []).endpoints).toEqual(expected);
  });
});
