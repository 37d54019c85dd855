/**
 * The builder's input handling: JSON-number uint64s (accepted as lisk-commander does), the
 * genesis assets file shape, and errors that name the module, field or rule at fault.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../src/codec/index.js';
import { codec } from '../../../src/codec/index.js';
import type { GenesisConfig } from '../../../src/config/genesis-config.js';
import { FormatError } from '../../../src/errors.js';
import {
  createGenesisBlock,
  GenesisAssetsError,
  GenesisBuildError,
  parseGenesisAssetsFile,
  readGenesisAssetsFile,
  uint64NumbersToStrings,
  type GenesisAssetInput,
} from '../../../src/genesis/index.js';
import { loadJsonFixture } from '../../support/fixtures.js';

const nested: Schema = {
  $id: '/test/nested',
  type: 'object',
  required: ['a', 'list', 'inner'],
  properties: {
    a: { dataType: 'uint64', fieldNumber: 1 },
    list: {
      type: 'array',
      fieldNumber: 2,
      items: { type: 'object', properties: { s: { dataType: 'sint64', fieldNumber: 1 }, n: { dataType: 'uint32', fieldNumber: 2 } } },
    },
    inner: { type: 'object', fieldNumber: 3, properties: { values: { type: 'array', fieldNumber: 1, items: { dataType: 'uint64' } } } },
  },
};

describe('uint64NumbersToStrings', () => {
  it('turns JSON-number uint64/sint64 values into decimal strings at any depth, and nothing else', () => {
    const json = {
      a: 5,
      list: [
        { s: -7, n: 3 },
        { s: '8', n: 4 },
      ],
      inner: { values: [0, '12', 9007199254740991] },
      extra: 1,
    };
    expect(uint64NumbersToStrings(nested, json)).toEqual({
      a: '5',
      list: [
        { s: '-7', n: 3 },
        { s: '8', n: 4 },
      ],
      inner: { values: ['0', '12', '9007199254740991'] },
      extra: 1,
    });
    expect(json.a).toBe(5);
    const value = codec.fromJSON<{ a: bigint }>(nested, uint64NumbersToStrings(nested, json) as object);
    expect(value.a).toBe(5n);
  });

  it('refuses a number JSON.parse may already have rounded', () => {
    expect(() => uint64NumbersToStrings(nested, { a: 2 ** 60 })).toThrow(FormatError);
    expect(() => uint64NumbersToStrings(nested, { a: 2 ** 60 })).toThrow(/\.a: .*not a safe integer/);
    expect(() => uint64NumbersToStrings(nested, { a: 1.5 })).toThrow(/\.a/);
  });
});

describe('genesis assets file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-genesis-inputs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts the fixture files and reports a bad shape with the entry path', () => {
    expect(parseGenesisAssetsFile(loadJsonFixture('chains/dev/genesis_assets.json')).assets.map((asset) => asset.module)).toEqual([
      'auth',
      'interoperability',
      'pos',
      'token',
    ]);
    expect(() => parseGenesisAssetsFile({ assets: [{ module: 'token', data: {} }] })).toThrow(GenesisAssetsError);
    expect(() => parseGenesisAssetsFile({ assets: [{ module: 'token', data: {} }] })).toThrow(
      ".assets[0]: must have required property 'schema'",
    );
    expect(() => parseGenesisAssetsFile({})).toThrow("must have required property 'assets'");
    expect(() =>
      parseGenesisAssetsFile({
        assets: [
          { module: 'a', data: {}, schema: {} },
          { module: 'a', data: {}, schema: {} },
        ],
      }),
    ).toThrow('module "a" has more than one asset');
  });

  it('names the file when it cannot be read', () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ not json');
    expect(() => readGenesisAssetsFile(file)).toThrow(`Cannot read genesis assets file ${file}`);
    expect(() => readGenesisAssetsFile(join(dir, 'missing.json'))).toThrow(GenesisAssetsError);
  });
});

describe('createGenesisBlock errors', () => {
  const genesisConfig: GenesisConfig = {
    chainID: Buffer.from('04000000', 'hex'),
    blockTime: 10,
    bftBatchSize: 103,
    maxTransactionsSize: 15360,
    minimumCertifyHeight: 1,
  };
  const devAssets = (): GenesisAssetInput[] => loadJsonFixture<{ assets: GenesisAssetInput[] }>('chains/dev/genesis_assets.json').assets;

  it('names the module and field of a value its schema refuses', async () => {
    const assets = devAssets().map((asset) =>
      asset.module === 'interoperability' ? { ...asset, data: { ...asset.data, ownChainNonce: 'x' } } : asset,
    );
    await expect(createGenesisBlock({ genesisConfig, assets, timestamp: 0 })).rejects.toThrow(
      /Genesis asset of module interoperability: .*\.ownChainNonce/,
    );
  });

  it('refuses two assets of one module and bad header values', async () => {
    const [first] = devAssets();
    await expect(createGenesisBlock({ genesisConfig, assets: [first as GenesisAssetInput, first as GenesisAssetInput] })).rejects.toThrow(
      'Module auth has more than one genesis asset.',
    );
    await expect(createGenesisBlock({ genesisConfig, assets: [], timestamp: -1 })).rejects.toThrow(GenesisBuildError);
    await expect(createGenesisBlock({ genesisConfig, assets: [], height: 2 ** 32 })).rejects.toThrow('height must be an integer');
    await expect(createGenesisBlock({ genesisConfig, assets: [], previousBlockID: Buffer.alloc(31) })).rejects.toThrow(
      'previousBlockID must be 32 bytes',
    );
  });

  it('refuses a genesis state the modules reject, with their reason', async () => {
    const assets = devAssets().map((asset) => {
      if (asset.module !== 'pos') return asset;
      const data = asset.data as { genesisData: { initValidators: string[] } };
      // An init validator that is not a validator.
      const initValidators = [...data.genesisData.initValidators, 'lsk24cd35u4jdq8szo3pnsqe5dsxwrnazyqqqg5eu'];
      return { ...asset, data: { ...asset.data, genesisData: { ...data.genesisData, initValidators } } };
    });
    await expect(createGenesisBlock({ genesisConfig, assets, timestamp: 0 })).rejects.toThrow(
      'The genesis state is invalid: Init validators includes non existing validator address.',
    );
  });

  it('refuses a genesis state that sets no validators', async () => {
    const assets = devAssets().filter((asset) => asset.module !== 'pos');
    await expect(createGenesisBlock({ genesisConfig, assets, timestamp: 0 })).rejects.toThrow('The genesis state sets no validators.');
  });

  it('gives a header with the genesis rules of LIP 0060', async () => {
    const { block } = await createGenesisBlock({
      genesisConfig,
      assets: loadJsonFixture<{ assets: GenesisAssetInput[] }>('chains/dev/genesis_assets.json').assets,
      timestamp: 1234,
      height: 7,
      previousBlockID: Buffer.alloc(32, 1),
    });
    const { header } = block;
    expect(header.version).toBe(0);
    expect(header.height).toBe(7);
    expect(header.timestamp).toBe(1234);
    expect(header.previousBlockID.equals(Buffer.alloc(32, 1))).toBe(true);
    expect(header.maxHeightPrevoted).toBe(7);
    expect(header.maxHeightGenerated).toBe(0);
    expect(header.impliesMaxPrevotes).toBe(true);
    expect(header.aggregateCommit).toEqual({ height: 7, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) });
    expect(header.signature.length).toBe(0);
    expect(block.assets.all().map((asset) => asset.module)).toEqual(['auth', 'interoperability', 'pos', 'token']);
    expect(() => block.validateGenesis()).not.toThrow();
  });
});
