/**
 * Conformance of src/chain with real lisk-sdk 6.1 genesis blocks (LIP 0055, 0058, 0060): the
 * pos-mainchain example and Lisk Core devnet blobs against their expected.json (bytes, IDs, roots,
 * validatorsHash, every asset), and the dev chain's genesis blob against its block.toJSON() file
 * and the first line of blocks.ndjson.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { computeValidatorsHash } from '../../src/chain/validators-hash.js';
import { codec, type Schema } from '../../src/codec/index.js';
import { EMPTY_HASH, sha256 } from '../../src/crypto/index.js';
import { leafHash, merkleRoot } from '../../src/merkle/index.js';
import { recordCases } from '../support/conformance-tally.js';
import { hex, loadBinaryFixture, loadJsonFixture } from '../support/fixtures.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

interface AssetExpectation {
  encodedAssetLength: number;
  dataLength: number;
  dataSha256: string;
  leafHash: string;
  matchesGenesisAssetsJson: boolean;
  decodedSummary: Record<string, unknown>;
}

interface GenesisExpectation {
  chainID: string;
  blobLength: number;
  blobSha256: string;
  blockID: string;
  headerBytes: string;
  headerLength: number;
  header: Record<string, unknown>;
  transactionsCount: number;
  transactionRoot: string;
  assetRoot: string;
  validatorsHash: string;
  validatorsHashInput: {
    encoded: string;
    certificateThreshold: string;
    activeValidatorsCount: number;
    bftWeightEach: string;
  };
  numberOfAssets: number;
  assetModules: string[];
  assetsPerModule: Record<string, number>;
  assets: Record<string, AssetExpectation>;
}

interface GenesisAssetsFile {
  assets: { module: string; data: Record<string, unknown>; schema: Schema }[];
}

interface PosGenesisAsset {
  validators: { address: Buffer; blsKey: Buffer }[];
  genesisData: { initRounds: number; initValidators: Buffer[] };
}

/** The PoS genesis validators (lisk-sdk pos finalizeGenesisState): init validators, bftWeight 1, threshold ⌊2n/3⌋+1. */
function genesisValidatorsHash(block: Block, assetsFile: GenesisAssetsFile): { hash: Buffer; count: number; threshold: bigint } {
  const posEntry = assetsFile.assets.find((asset) => asset.module === 'pos');
  const posData = block.assets.getAsset('pos');
  if (!posEntry || !posData) throw new Error('The genesis block has no pos asset');
  const pos = codec.decode<PosGenesisAsset>(posEntry.schema, posData);
  const blsKeyByAddress = new Map(pos.validators.map((validator) => [toHex(validator.address), validator.blsKey]));
  const validators = pos.genesisData.initValidators.map((address) => {
    const blsKey = blsKeyByAddress.get(toHex(address));
    if (!blsKey) throw new Error(`Init validator ${toHex(address)} is not a registered validator`);
    return { blsKey, bftWeight: 1n };
  });
  const threshold = BigInt(Math.floor((2 * validators.length) / 3) + 1);
  return { hash: computeValidatorsHash(validators, threshold), count: validators.length, threshold };
}

/**
 * genesis_assets.json is in lisk-commander's format, which writes some uint64 values as JSON
 * numbers (lisk-codec's fromJSON passes them to BigInt). Basalt's codec takes the strict codec
 * JSON form only, so those numbers become decimal strings first.
 */
function uint64NumbersAsStrings(schema: Schema | Record<string, unknown>, value: unknown): unknown {
  const node = schema as {
    type?: string;
    dataType?: string;
    properties?: Record<string, Record<string, unknown>>;
    items?: Record<string, unknown>;
  };
  if (node.type === 'object' && node.properties && value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [key, property] of Object.entries(node.properties)) {
      if (key in out) out[key] = uint64NumbersAsStrings(property, out[key]);
    }
    return out;
  }
  if (node.type === 'array' && node.items && Array.isArray(value)) {
    return value.map((item) => uint64NumbersAsStrings(node.items as Record<string, unknown>, item));
  }
  if ((node.dataType === 'uint64' || node.dataType === 'sint64') && typeof value === 'number') return String(value);
  return value;
}

function encodeGenesisAssetJson(entry: GenesisAssetsFile['assets'][number]): Buffer {
  return codec.encode(entry.schema, codec.fromJSON(entry.schema, uint64NumbersAsStrings(entry.schema, entry.data) as object));
}

/** Compares a decoded asset (codec JSON form) with expected.json's summary: counts of arrays, scalar values. */
function expectSummary(decoded: Record<string, unknown>, summary: Record<string, unknown>, path = ''): void {
  for (const [key, expected] of Object.entries(summary)) {
    const actual = decoded[key];
    if (expected !== null && typeof expected === 'object' && 'count' in expected) {
      expect(actual, `${path}${key}`).toHaveLength((expected as { count: number }).count);
    } else if (expected !== null && typeof expected === 'object') {
      expectSummary(actual as Record<string, unknown>, expected as Record<string, unknown>, `${path}${key}.`);
    } else {
      expect(actual, `${path}${key}`).toBe(expected);
    }
  }
}

describe.each(['pos-mainchain-default', 'lisk-core-devnet'])('genesis/%s', (network) => {
  const dir = `genesis/${network}`;
  const blob = loadBinaryFixture(`${dir}/genesis_block.blob`);
  const expected = loadJsonFixture<GenesisExpectation>(`${dir}/expected.json`);
  const assetsFile = loadJsonFixture<GenesisAssetsFile>(`${dir}/genesis_assets.json`);
  const block = Block.fromBytes(blob);
  let assetsChecked = 0;
  afterAll(() => {
    recordCases(`${dir}/genesis_block.blob`, 1);
    recordCases(`${dir}/expected.json`, 1);
    recordCases(`${dir}/genesis_assets.json`, assetsChecked);
  });

  it('decodes and re-encodes byte for byte', () => {
    expect(blob.length).toBe(expected.blobLength);
    expect(toHex(sha256(blob))).toBe(expected.blobSha256);
    expect(block.bytes.equals(blob)).toBe(true);
    expect(toHex(block.header.bytes)).toBe(expected.headerBytes);
    expect(block.header.bytes.length).toBe(expected.headerLength);
  });

  it('has the expected ID, header JSON and transaction root', () => {
    expect(toHex(block.header.id)).toBe(expected.blockID);
    expect(toHex(sha256(hex(expected.headerBytes)))).toBe(expected.blockID);
    expect(block.header.toJSON()).toEqual(expected.header);
    expect(block.transactions).toHaveLength(expected.transactionsCount);
    expect(toHex(block.computeTransactionRoot())).toBe(expected.transactionRoot);
    expect(toHex(block.header.transactionRoot)).toBe(toHex(EMPTY_HASH));
  });

  it('has the expected asset root over the encoded assets', () => {
    expect(toHex(block.assets.root())).toBe(expected.assetRoot);
    expect(toHex(block.header.assetRoot)).toBe(expected.assetRoot);
    expect(toHex(merkleRoot(block.assets.encoded()))).toBe(expected.assetRoot);
  });

  it('recomputes validatorsHash from the PoS genesis asset', () => {
    const { hash, count, threshold } = genesisValidatorsHash(block, assetsFile);
    expect(count).toBe(expected.validatorsHashInput.activeValidatorsCount);
    expect(threshold.toString()).toBe(expected.validatorsHashInput.certificateThreshold);
    expect(expected.validatorsHashInput.bftWeightEach).toBe('1');
    expect(toHex(sha256(hex(expected.validatorsHashInput.encoded)))).toBe(expected.validatorsHash);
    expect(toHex(hash)).toBe(expected.validatorsHash);
    expect(toHex(block.header.validatorsHash)).toBe(expected.validatorsHash);
  });

  it('passes validateGenesis', () => {
    expect(() => block.validateGenesis()).not.toThrow();
  });

  it('holds every asset as expected.json lists it', () => {
    const assets = block.assets.all();
    const encoded = block.assets.encoded();
    expect(assets).toHaveLength(expected.numberOfAssets);
    expect(assets.map((asset) => asset.module)).toEqual(expected.assetModules);
    for (const [module, count] of Object.entries(expected.assetsPerModule)) {
      expect(assets.filter((asset) => asset.module === module)).toHaveLength(count);
    }
    assets.forEach((asset, i) => {
      const want = expected.assets[asset.module] as AssetExpectation;
      const bytes = encoded[i] as Buffer;
      expect(bytes.length).toBe(want.encodedAssetLength);
      expect(asset.data.length).toBe(want.dataLength);
      expect(toHex(sha256(asset.data))).toBe(want.dataSha256);
      expect(toHex(leafHash(bytes))).toBe(want.leafHash);
      expect(toHex(sha256(Buffer.concat([Buffer.from([0]), bytes])))).toBe(want.leafHash);

      // genesis_assets.json: its JSON encodes to exactly the asset data (no entry → empty data).
      const entry = assetsFile.assets.find((candidate) => candidate.module === asset.module);
      expect(want.matchesGenesisAssetsJson).toBe(true);
      if (!entry) {
        expect(asset.data.length).toBe(0);
        return;
      }
      expect(encodeGenesisAssetJson(entry).equals(asset.data)).toBe(true);
      expectSummary(codec.toJSON(entry.schema, codec.decode(entry.schema, asset.data)), want.decodedSummary, `${asset.module}.`);
      assetsChecked += 1;
    });
    expect(assetsChecked).toBe(assetsFile.assets.length);
  });
});

describe('chains/dev genesis block', () => {
  const blob = loadBinaryFixture('chains/dev/genesis_block.blob');
  const json = loadJsonFixture<Record<string, unknown>>('chains/dev/genesis_block.json');
  const assetsFile = loadJsonFixture<GenesisAssetsFile>('chains/dev/genesis_assets.json');
  const firstLine = loadBinaryFixture('chains/dev/blocks.ndjson').toString('utf8').split('\n', 1)[0] as string;
  const heightZero = JSON.parse(firstLine) as { height: number; id: string; blockHex: string; blockJson: unknown };
  const block = Block.fromBytes(blob);
  let assetsChecked = 0;
  afterAll(() => {
    recordCases('chains/dev/genesis_block.blob', 1);
    recordCases('chains/dev/genesis_block.json', 1);
    recordCases('chains/dev/genesis_assets.json', assetsChecked);
  });

  it('re-encodes byte for byte and equals blocks.ndjson height 0', () => {
    expect(block.bytes.equals(blob)).toBe(true);
    expect(heightZero.height).toBe(0);
    expect(heightZero.blockHex).toBe(toHex(blob));
    expect(toHex(block.header.id)).toBe(heightZero.id);
    expect(block.toJSON()).toEqual(heightZero.blockJson);
  });

  it('gives exactly the JSON of genesis_block.json (values and key order)', () => {
    expect(block.toJSON()).toEqual(json);
    expect(JSON.stringify(block.toJSON())).toBe(JSON.stringify(json));
  });

  it('passes validateGenesis, with roots and validatorsHash recomputed', () => {
    expect(() => block.validateGenesis()).not.toThrow();
    expect(block.header.assetRoot.equals(block.assets.root())).toBe(true);
    expect(block.header.transactionRoot.equals(block.computeTransactionRoot())).toBe(true);
    expect(toHex(genesisValidatorsHash(block, assetsFile).hash)).toBe(toHex(block.header.validatorsHash));
  });

  it('holds the assets of genesis_assets.json', () => {
    expect(block.assets.all().map((asset) => asset.module)).toEqual(assetsFile.assets.map((asset) => asset.module));
    for (const entry of assetsFile.assets) {
      const data = block.assets.getAsset(entry.module) as Buffer;
      expect(encodeGenesisAssetJson(entry).equals(data)).toBe(true);
      assetsChecked += 1;
    }
    expect(assetsChecked).toBe(4);
  });
});
