/**
 * The token module's `system_getMetadata` entry and command schemas must be lisk-sdk 6.1's
 * exactly (chains/dev/metadata.json, transactions/command_params_schemas.json; lisk-sdk
 * token/module.ts metadata()).
 */
import { describe, expect, it } from 'vitest';
import { TokenModule } from '../../../../src/modules/token/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { recordCases } from '../../../support/conformance-tally.js';

interface MetadataFixture {
  modules: { name: string }[];
}

describe('token metadata', () => {
  const token = new TokenModule();

  it('equals the token entry of the dev node system_getMetadata answer', () => {
    const fixture = loadJsonFixture<MetadataFixture>('chains/dev/metadata.json');
    const expected = fixture.modules.find((entry) => entry.name === 'token');
    const actual = JSON.parse(JSON.stringify({ ...token.metadata(), name: token.name }));
    expect(actual).toStrictEqual(expected);
    recordCases('chains/dev/metadata.json', 1);
  });

  it('store keys are the prefixes of the substores in registration order', () => {
    expect(token.stores.map((store) => store.prefix.toString('hex'))).toEqual([
      '3c469e9d0000',
      '3c469e9d8000',
      '3c469e9d4000',
      '3c469e9dc000',
    ]);
  });

  it('command params schemas equal the dumped lisk-framework schemas', () => {
    const fixture = loadJsonFixture<{ modules: { token: Record<string, unknown> } }>('transactions/command_params_schemas.json');
    const expected = fixture.modules.token;
    expect(Object.keys(expected)).toEqual(token.commands.map((command) => command.name));
    for (const command of token.commands) {
      expect(JSON.parse(JSON.stringify(command.schema))).toStrictEqual(expected[command.name]);
    }
    recordCases('transactions/command_params_schemas.json', token.commands.length);
  });

  it('genesis asset schema equals the one in chains/dev/genesis_assets.json', () => {
    const fixture = loadJsonFixture<{ assets: { module: string; schema: unknown }[] }>('chains/dev/genesis_assets.json');
    const expected = fixture.assets.find((asset) => asset.module === 'token')?.schema;
    expect(JSON.parse(JSON.stringify(token.genesisAssetSchema))).toStrictEqual(expected);
  });
});
