/**
 * metadata() of the legacy module: the `legacy` entry of `system_getMetadata` on a Lisk Core v4
 * node, derived from lisk-core's LegacyModule.metadata() (module.ts: endpoints, commands, events,
 * assets, stores — stores empty), its schemas.ts, events/*.ts and stores/legacyAccount.ts, and
 * cross-checked with a Lisk Core 4.0.6 node's system_getMetadata and the devnet genesis_assets.json
 * schema.
 */
import { describe, expect, it } from 'vitest';
import { LegacyModule } from '../../../../src/modules/legacy/index.js';
import { createLegacyWorld, devnetAssetJSON } from './legacy-test-kit.js';

const bytes = (length: number, fieldNumber: number) => ({
  dataType: 'bytes',
  minLength: length,
  maxLength: length,
  fieldNumber,
});

/** The entry a Lisk Core v4 node reports (JSON key order included: endpoints … stores, then name). */
const EXPECTED = {
  endpoints: [
    {
      name: 'getLegacyAccount',
      request: {
        $id: '/legacy/endpoint/legacyAccountRequest',
        type: 'object',
        required: ['publicKey'],
        properties: { publicKey: { type: 'string', format: 'hex' } },
      },
      response: {
        $id: '/legacy/store/genesis',
        type: 'object',
        required: ['balance'],
        properties: { balance: { dataType: 'uint64', fieldNumber: 1 } },
      },
    },
  ],
  commands: [
    {
      name: 'reclaimLSK',
      params: {
        $id: '/legacy/command/reclaimLSKParams',
        type: 'object',
        required: ['amount'],
        properties: { amount: { dataType: 'uint64', fieldNumber: 1 } },
      },
    },
    {
      name: 'registerKeys',
      params: {
        $id: '/legacy/command/registerKeysParams',
        type: 'object',
        required: ['blsKey', 'proofOfPossession', 'generatorKey'],
        properties: { blsKey: bytes(48, 1), proofOfPossession: bytes(96, 2), generatorKey: bytes(32, 3) },
      },
    },
  ],
  events: [
    {
      name: 'accountReclaimed',
      data: {
        $id: 'lisk/legacy/accountReclaimedEventData',
        type: 'object',
        required: ['legacyAddress', 'address', 'amount'],
        properties: {
          legacyAddress: { dataType: 'bytes', maxLength: 8, fieldNumber: 1 },
          address: { dataType: 'bytes', maxLength: 20, fieldNumber: 2 },
          amount: { dataType: 'uint64', fieldNumber: 3 },
        },
      },
    },
    {
      name: 'keysRegistered',
      data: {
        $id: 'lisk/legacy/keysRegisteredEventData',
        type: 'object',
        required: ['address', 'generatorKey', 'blsKey'],
        properties: {
          address: { dataType: 'bytes', maxLength: 20, fieldNumber: 1 },
          generatorKey: { dataType: 'bytes', maxLength: 32, fieldNumber: 2 },
          blsKey: { dataType: 'bytes', maxLength: 48, fieldNumber: 3 },
        },
      },
    },
  ],
  assets: [
    {
      version: 0,
      data: {
        $id: '/legacy/module/genesis',
        type: 'object',
        required: ['accounts'],
        properties: {
          accounts: {
            type: 'array',
            fieldNumber: 1,
            items: {
              type: 'object',
              required: ['address', 'balance'],
              properties: { address: bytes(8, 1), balance: { dataType: 'uint64', fieldNumber: 2 } },
            },
          },
        },
      },
    },
  ],
  stores: [],
};

describe('legacy metadata', () => {
  const { legacy } = createLegacyWorld();

  it('equals the Lisk Core v4 entry, key order included', () => {
    expect(legacy.metadata()).toEqual(EXPECTED);
    expect(JSON.stringify({ ...legacy.metadata(), name: legacy.name })).toBe(JSON.stringify({ ...EXPECTED, name: 'legacy' }));
  });

  it('reports the genesis asset schema of the devnet genesis_assets.json', () => {
    const { schema } = devnetAssetJSON('legacy');
    expect(legacy.metadata().assets[0]?.data).toEqual(schema);
    expect(JSON.stringify(legacy.genesisAssetSchema)).toBe(JSON.stringify(schema));
  });

  it('has what lisk-core registers: two commands, two events, one store at index 0, one endpoint', () => {
    expect(legacy.name).toBe('legacy');
    expect(legacy.commands.map((command) => command.name)).toEqual(['reclaimLSK', 'registerKeys']);
    expect(legacy.events.map((event) => `${event.moduleName}:${event.name}`)).toEqual(['legacy:accountReclaimed', 'legacy:keysRegistered']);
    expect(legacy.stores.map((store) => [store.name, store.prefix.toString('hex')])).toEqual([['legacyAccount', '449fea740000']]);
    expect(Object.keys(legacy.endpoints)).toEqual(['getLegacyAccount']);
    expect(legacy.endpoints.getLegacyAccount?.sensitive).toBeUndefined();
    expect(legacy.legacyReserveAddress.toString('hex')).toBe('02e87c669d633481fc99f2b2d5cb2f587d96fbac');
  });

  it('refuses to run a genesis before init', () => {
    const world = createLegacyWorld();
    const uninitialised = new LegacyModule({
      token: world.modules.token.method,
      validators: world.modules.validators.method,
      pos: world.modules.pos.method,
    });
    expect(() => uninitialised.config).toThrow('The legacy module is used before init().');
  });
});
