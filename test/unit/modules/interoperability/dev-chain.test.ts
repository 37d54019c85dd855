/**
 * The interoperability module against the dev chain (lisk-sdk 6.1.0 mainchain): metadata equals
 * system_getMetadata, the genesis asset encodes to the genesis block's bytes, and the state its
 * genesis writes equals every interoperability key of final_state_kv.json (the chain never
 * registers a sidechain, so the tip still holds exactly what genesis wrote).
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/logger.js';
import {
  genesisInteroperabilitySchema,
  INTEROPERABILITY_STORE_PREFIX,
  interoperabilityStores,
} from '../../../../src/modules/interoperability/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { createModules, devInteroperabilityAsset, GENESIS_TIMESTAMP, OWN_CHAIN_ID, setupAfterDevGenesis } from './setup.js';

interface FinalState {
  global: { method: string; params: Record<string, unknown>; result: unknown }[];
}

describe('interoperability on the dev chain', () => {
  it('reports the same metadata as the lisk-sdk node', () => {
    const metadata = loadJsonFixture<{ modules: { name: string }[] }>('chains/dev/metadata.json');
    const expected = metadata.modules.find((entry) => entry.name === 'interoperability');
    const { interoperability } = createModules();
    expect({ ...interoperability.metadata(), name: 'interoperability' }).toEqual(expected);
  });

  it('uses the fixed 83ed0d25 store prefix and lisk-sdk substore indexes', () => {
    expect(INTEROPERABILITY_STORE_PREFIX.toString('hex')).toBe('83ed0d25');
    expect(interoperabilityStores.map((store) => store.prefix.toString('hex'))).toEqual([
      '83ed0d250000',
      '83ed0d258000',
      '83ed0d25b000',
      '83ed0d25a000',
      '83ed0d259000',
      '83ed0d25c000',
      '83ed0d25d000',
      '83ed0d25e000',
    ]);
  });

  it('has the genesis asset schema of genesis_assets.json, whose data encodes to the genesis block asset', () => {
    const asset = devInteroperabilityAsset();
    expect(genesisInteroperabilitySchema).toEqual(asset.schema);
    const blockLine = loadJsonFixture<unknown>('chains/dev/genesis_block.json') as {
      assets: { module: string; data: string }[];
    };
    const blockAsset = blockLine.assets.find((entry) => entry.module === 'interoperability');
    expect(asset.bytes.toString('hex')).toBe(blockAsset?.data);
    expect(asset.bytes.toString('hex')).toBe('0a0e6c69736b5f6d61696e636861696e1000');
  });

  it('writes at genesis exactly the interoperability entries of the tip state', () => {
    const { harness } = setupAfterDevGenesis();
    const finalKv = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json');
    const expected = finalKv.entries.filter(([key]) => key.startsWith('83ed0d25'));
    expect(expected).toEqual([
      ['83ed0d25b000', '0a0e6c69736b5f6d61696e636861696e1204040000001800'],
      ['83ed0d25e0006c69736b5f6d61696e636861696e', '0a0404000000'],
    ]);
    const written = [...harness.base.iterate({ gte: Buffer.alloc(1, 0), lte: Buffer.alloc(40, 0xff) })].map(({ key, value }) => [
      key.toString('hex'),
      value.toString('hex'),
    ]);
    expect(written).toEqual(expected);
    // Genesis emits no interoperability event.
    const fresh = new ModuleHarness({ header: { height: 0, timestamp: GENESIS_TIMESTAMP } });
    fresh.assets.set('interoperability', devInteroperabilityAsset().bytes);
    createModules().interoperability.initGenesisState(fresh.genesisContext());
    expect(fresh.events.events()).toEqual([]);
  });

  it('answers the endpoints the dev node was asked at the tip', () => {
    const { interoperability, harness } = setupAfterDevGenesis();
    const finalState = loadJsonFixture<FinalState>('chains/dev/final_state.json');
    const answers = finalState.global.filter((entry) => entry.method.startsWith('interoperability_'));
    expect(answers.map((entry) => entry.method)).toEqual(['interoperability_getOwnChainAccount', 'interoperability_getAllChainAccounts']);
    for (const { method, params, result } of answers) {
      const handler = interoperability.endpoints[method.slice('interoperability_'.length)]!;
      const answer = handler.handle({
        state: harness.state,
        chainID: OWN_CHAIN_ID,
        logger: silentLogger,
        header: harness.header,
        params,
      });
      expect(answer).toEqual(result);
    }
  });
});
