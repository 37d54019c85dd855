/**
 * Conformance of src/chain with blocks and events produced by real lisk-sdk 6.1 nodes
 * (LIP 0055, 0058, 0065, 0068): every block and event set of blocks/lisk_peer_blocks.json, and
 * every block and event set of the dev chain (chains/dev/blocks.ndjson, events.ndjson), with
 * every header signature checked against the generator key the BFT parameters held at that height.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BlockAssets } from '../../src/chain/block-assets.js';
import { BlockHeader } from '../../src/chain/block-header.js';
import { Block, type BlockJSON } from '../../src/chain/block.js';
import { decodeEvent, encodeEvent, eventSmtLeaves, eventToJSON, type EventJSON, type EventProps } from '../../src/chain/event.js';
import { eventSchema } from '../../src/chain/schemas.js';
import { Transaction } from '../../src/chain/transaction.js';
import { computeValidatorsHash } from '../../src/chain/validators-hash.js';
import { codec, decodeLisk32Address, type Schema } from '../../src/codec/index.js';
import { MESSAGE_TAG_BLOCK_HEADER, sha256, verifyData } from '../../src/crypto/index.js';
import { computeEventRoot, merkleRoot } from '../../src/merkle/index.js';
import { recordCases } from '../support/conformance-tally.js';
import { hex, loadBinaryFixture, loadJsonFixture } from '../support/fixtures.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const MAX_TRANSACTIONS_SIZE = 15360;

function loadNdjson<T>(path: string): T[] {
  return loadBinaryFixture(path)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}

function eventFromJSON(json: EventJSON): EventProps {
  return codec.fromJSON<EventProps>(eventSchema, json);
}

/** All SMT leaves of a block's events, in event order (LIP 0065). */
function leavesOf(events: readonly EventProps[]): { key: Buffer; value: Buffer }[] {
  return events.flatMap((event) => eventSmtLeaves(event));
}

// ------------------------------------------------------------------------------------------------
// blocks/lisk_peer_blocks.json
// ------------------------------------------------------------------------------------------------

interface PeerBlock {
  sample: string;
  height: number;
  id: string;
  json: BlockJSON;
  headerBytes: string;
  signingBytes: string;
  signingDigest: string;
  generatorKey: string;
  transactionBytes: string[];
  transactionIDs: string[];
  assetBytes: string[];
  blockBytes: string;
  checks: Record<string, boolean>;
}

interface PeerEvents {
  sample: string;
  height: number;
  blockID: string;
  count: number;
  eventsJSON: EventJSON[];
  eventBytes: string[];
  smtLeaves: { key: string; value: string }[];
  eventRoot: string;
  headerEventRoot: string;
  eventRootMatchesHeader: boolean;
}

interface PeerProfile {
  chainID: string;
  genesis: { id: string; eventRoot: string };
  blocks: PeerBlock[];
  events: PeerEvents[];
}

describe('blocks/lisk_peer_blocks.json', () => {
  const file = 'blocks/lisk_peer_blocks.json';
  const { profiles } = loadJsonFixture<{ profiles: Record<string, PeerProfile> }>(file);
  let ran = 0;
  afterAll(() => recordCases(file, ran));

  it('holds 4 blocks and 6 event sets', () => {
    const all = Object.values(profiles);
    expect(all.flatMap((profile) => profile.blocks)).toHaveLength(4);
    expect(all.flatMap((profile) => profile.events)).toHaveLength(6);
  });

  for (const [name, profile] of Object.entries(profiles)) {
    const chainID = hex(profile.chainID);

    for (const sample of profile.blocks) {
      it(`${name} block ${sample.height}: header, signature, transactions, assets, block bytes`, () => {
        const header = BlockHeader.fromJSON(sample.json.header);
        expect(toHex(header.bytes)).toBe(sample.headerBytes);
        expect(toHex(header.signingBytes())).toBe(sample.signingBytes);
        const digest = sha256(Buffer.concat([Buffer.from(MESSAGE_TAG_BLOCK_HEADER, 'ascii'), chainID, header.signingBytes()]));
        expect(toHex(digest)).toBe(sample.signingDigest);
        expect(toHex(header.id)).toBe(sample.id);
        expect(sample.json.header.id).toBe(sample.id);
        expect(header.height).toBe(sample.height);
        expect(header.isSignatureValid(hex(sample.generatorKey), chainID)).toBe(sample.checks.signatureValid);
        expect(header.isSignatureValid(hex(sample.generatorKey), Buffer.from('ffffffff', 'hex'))).toBe(false);

        const transactions = sample.json.transactions.map((json) => Transaction.fromJSON(json));
        expect(transactions.map((tx) => toHex(tx.bytes))).toEqual(sample.transactionBytes);
        expect(transactions.map((tx) => toHex(tx.id))).toEqual(sample.transactionIDs);
        expect(sample.json.transactions.map((json) => json.id)).toEqual(sample.transactionIDs);

        const assets = new BlockAssets(sample.json.assets.map((asset) => ({ module: asset.module, data: hex(asset.data) })));
        expect(assets.encoded().map(toHex)).toEqual(sample.assetBytes);

        const block = new Block(header, transactions, assets);
        expect(toHex(block.bytes)).toBe(sample.blockBytes);
        expect(header.transactionRoot.equals(block.computeTransactionRoot())).toBe(sample.checks.transactionRootMatches);
        expect(header.assetRoot.equals(assets.root())).toBe(sample.checks.assetRootMatches);
        expect(sample.checks.lisk_chain_Block_validate).toBe(true);
        expect(() => block.validate(MAX_TRANSACTIONS_SIZE)).not.toThrow();

        // The binary block decodes back to the node's JSON, key order included.
        const decoded = Block.fromBytes(hex(sample.blockBytes));
        expect(decoded.toJSON()).toEqual(sample.json);
        expect(JSON.stringify(decoded.toJSON())).toBe(JSON.stringify(sample.json));
        ran += 1;
      });
    }

    for (const sample of profile.events) {
      it(`${name} events of height ${sample.height}: encoding, SMT leaves, eventRoot`, () => {
        const events = sample.eventsJSON.map(eventFromJSON);
        expect(events).toHaveLength(sample.count);
        const encoded = events.map((event) => encodeEvent(event));
        expect(encoded.map(toHex)).toEqual(sample.eventBytes);
        expect(JSON.stringify(encoded.map((bytes) => eventToJSON(decodeEvent(bytes))))).toBe(JSON.stringify(sample.eventsJSON));

        const leaves = leavesOf(events);
        expect(leaves.map((leaf) => ({ key: toHex(leaf.key), value: toHex(leaf.value) }))).toEqual(sample.smtLeaves);
        expect(toHex(computeEventRoot(leaves))).toBe(sample.eventRoot);
        expect(sample.headerEventRoot).toBe(sample.eventRoot);
        expect(sample.eventRootMatchesHeader).toBe(true);

        // The header that committed to these events.
        const block = profile.blocks.find((candidate) => candidate.height === sample.height);
        if (block) {
          expect(block.id).toBe(sample.blockID);
          expect(block.json.header.eventRoot).toBe(sample.eventRoot);
        } else {
          expect(sample.height).toBe(0);
          expect(sample.blockID).toBe(profile.genesis.id);
          expect(sample.eventRoot).toBe(profile.genesis.eventRoot);
        }
        ran += 1;
      });
    }
  }
});

// ------------------------------------------------------------------------------------------------
// chains/dev: 421 blocks and their events
// ------------------------------------------------------------------------------------------------

interface DevBlockLine {
  height: number;
  id: string;
  blockHex: string;
  blockJson: BlockJSON;
}

interface BftParametersRange {
  fromHeight: number;
  toHeight: number;
  params: {
    validators: { address: string; bftWeight: string; blsKey: string }[];
    certificateThreshold: string;
    validatorsHash: string;
  };
}

interface GenesisAssetsFile {
  assets: { module: string; schema: Schema }[];
}

interface DevValidatorsFile {
  keys: { address: string; plain: { generatorKey: string } }[];
}

const DEV = 'chains/dev';
const devBlocks = loadNdjson<DevBlockLine>(`${DEV}/blocks.ndjson`);
const devEvents = loadNdjson<{ height: number; events: EventJSON[] }>(`${DEV}/events.ndjson`);
const bftRanges = loadJsonFixture<BftParametersRange[]>(`${DEV}/bft_parameters.json`);
const devChainID = hex('04000000');

function bftParametersAt(height: number): BftParametersRange {
  const range = bftRanges.find((candidate) => candidate.fromHeight <= height && height <= candidate.toHeight);
  if (!range) throw new Error(`bft_parameters.json has no parameters for height ${height}`);
  return range;
}

/**
 * Generator keys as the engine sees them (LIP 0058): a block is checked against the key in
 * the BFT parameters of its height, and those are set (with the validators' keys of that moment)
 * at the genesis block and at the end of each round. Keys change through successful
 * pos:registerValidator and pos:updateGeneratorKey transactions.
 */
class GeneratorKeys {
  private readonly current = new Map<string, Buffer>();
  private active = new Map<string, Buffer>();
  private readonly paramsSchemas = loadJsonFixture<{ modules: Record<string, Record<string, Schema>> }>(
    'transactions/command_params_schemas.json',
  ).modules;

  constructor(genesis: Block) {
    const { assets } = loadJsonFixture<GenesisAssetsFile>(`${DEV}/genesis_assets.json`);
    const posSchema = assets.find((asset) => asset.module === 'pos')?.schema as Schema;
    const pos = codec.decode<{ validators: { address: Buffer; generatorKey: Buffer }[] }>(
      posSchema,
      genesis.assets.getAsset('pos') as Buffer,
    );
    for (const validator of pos.validators) this.current.set(toHex(validator.address), validator.generatorKey);
  }

  genesisKeys(): ReadonlyMap<string, Buffer> {
    return this.current;
  }

  /** The key the BFT parameters of `height` hold for `address`. */
  keyFor(height: number, address: Buffer): Buffer | undefined {
    if (bftParametersAt(height).fromHeight === height) this.active = new Map(this.current);
    return this.active.get(toHex(address));
  }

  /** Applies the block's key changes, for the transactions whose result event says success. */
  applyBlock(block: Block, events: readonly EventJSON[]): number {
    let changes = 0;
    for (const tx of block.transactions) {
      if (tx.module !== 'pos' || (tx.command !== 'registerValidator' && tx.command !== 'updateGeneratorKey')) continue;
      const result = events.find((event) => event.name === 'commandExecutionResult' && event.topics[0] === `04${toHex(tx.id)}`);
      if (result?.data !== '0801') continue;
      const schema = this.paramsSchemas.pos?.[tx.command] as Schema;
      const { generatorKey } = codec.decode<{ generatorKey: Buffer }>(schema, tx.params);
      this.current.set(toHex(tx.senderAddress()), generatorKey);
      changes += 1;
    }
    return changes;
  }
}

describe(`${DEV}/blocks.ndjson`, () => {
  const eventsByHeight = new Map(devEvents.map((line) => [line.height, line.events]));
  const genesis = Block.fromBytes(hex((devBlocks[0] as DevBlockLine).blockHex));
  const keys = new GeneratorKeys(genesis);
  let ran = 0;
  let keyChanges = 0;
  afterAll(() => recordCases(`${DEV}/blocks.ndjson`, ran));

  it('holds heights 0..420, one line each', () => {
    expect(devBlocks.map((line) => line.height)).toEqual(Array.from({ length: 421 }, (_, height) => height));
  });

  it('starts from the generator keys of the pos-mainchain dev validators', () => {
    const { keys: devValidators } = loadJsonFixture<DevValidatorsFile>('genesis/pos-mainchain-default/dev-validators.json');
    const genesisKeys = keys.genesisKeys();
    expect(genesisKeys.size).toBe(103);
    for (const validator of devValidators) {
      expect(toHex(genesisKeys.get(toHex(decodeLisk32Address(validator.address))) as Buffer)).toBe(validator.plain.generatorKey);
    }
  });

  let previous: Block | undefined;
  for (const line of devBlocks) {
    it(`height ${line.height}`, () => {
      const bytes = hex(line.blockHex);
      const block = Block.fromBytes(bytes);
      const { header } = block;

      expect(block.bytes.equals(bytes)).toBe(true);
      expect(header.height).toBe(line.height);
      expect(toHex(header.id)).toBe(line.id);
      expect(toHex(sha256(header.bytes))).toBe(line.id);

      // The JSON form is the node's chain_getBlockByHeight answer, to the byte.
      const json = block.toJSON();
      expect(json).toEqual(line.blockJson);
      expect(JSON.stringify(json)).toBe(JSON.stringify(line.blockJson));
      expect(header.bytes.equals(BlockHeader.fromJSON(line.blockJson.header).bytes)).toBe(true);
      line.blockJson.transactions.forEach((txJson, i) => {
        expect(Transaction.fromJSON(txJson).bytes.equals((block.transactions[i] as Transaction).bytes)).toBe(true);
      });

      // Roots the header commits to before execution, and the validatorsHash of the next height.
      expect(header.transactionRoot.equals(merkleRoot(block.transactions.map((tx) => tx.id)))).toBe(true);
      expect(header.assetRoot.equals(block.assets.root())).toBe(true);
      const next = bftParametersAt(line.height + 1).params;
      expect(toHex(header.validatorsHash)).toBe(next.validatorsHash);

      if (line.height === 0) {
        expect(() => block.validateGenesis()).not.toThrow();
      } else {
        expect(() => block.validate(MAX_TRANSACTIONS_SIZE)).not.toThrow();
        expect(header.previousBlockID.equals((previous as Block).header.id)).toBe(true);
        // The generator is in the BFT parameters of its height, and signed with the key they hold.
        const { validators } = bftParametersAt(line.height).params;
        expect(validators.some((validator) => decodeLisk32Address(validator.address).equals(header.generatorAddress))).toBe(true);
        const generatorKey = keys.keyFor(line.height, header.generatorAddress);
        expect(generatorKey, `generator key of ${toHex(header.generatorAddress)}`).toBeDefined();
        expect(header.isSignatureValid(generatorKey as Buffer, devChainID)).toBe(true);
        expect(verifyData(MESSAGE_TAG_BLOCK_HEADER, devChainID, header.signingBytes(), header.signature, generatorKey as Buffer)).toBe(
          true,
        );
      }

      keyChanges += keys.applyBlock(block, eventsByHeight.get(line.height) ?? []);
      previous = block;
      ran += 1;
    });
  }

  it('saw the generator key changes of the workload (2 registrations, 2 updates)', () => {
    expect(keyChanges).toBe(4);
  });
});

describe(`${DEV}/bft_parameters.json`, () => {
  it('each validatorsHash is computeValidatorsHash of its validators and certificate threshold', () => {
    expect(bftRanges).toHaveLength(3);
    for (const { params } of bftRanges) {
      const validators = params.validators.map((validator) => ({ blsKey: hex(validator.blsKey), bftWeight: BigInt(validator.bftWeight) }));
      expect(toHex(computeValidatorsHash(validators, BigInt(params.certificateThreshold)))).toBe(params.validatorsHash);
    }
    recordCases(`${DEV}/bft_parameters.json`, bftRanges.length);
  });
});

describe(`${DEV}/events.ndjson`, () => {
  const eventRootByHeight = new Map(devBlocks.map((line) => [line.height, line.blockJson.header.eventRoot]));
  let ran = 0;
  afterAll(() => recordCases(`${DEV}/events.ndjson`, ran));

  it('holds one event set per block, 1387 events in all', () => {
    expect(devEvents.map((line) => line.height)).toEqual(devBlocks.map((line) => line.height));
    expect(devEvents.reduce((sum, line) => sum + line.events.length, 0)).toBe(1387);
  });

  for (const line of devEvents) {
    it(`events of height ${line.height}`, () => {
      const events = line.events.map(eventFromJSON);
      events.forEach((event, i) => {
        expect(event.index).toBe(i);
        expect(event.height).toBe(line.height);
      });
      const encoded = events.map((event) => encodeEvent(event));
      expect(JSON.stringify(encoded.map((bytes) => eventToJSON(decodeEvent(bytes))))).toBe(JSON.stringify(line.events));
      const leaves = events.flatMap((event, i) => eventSmtLeaves(event, encoded[i]));
      expect(toHex(computeEventRoot(leaves))).toBe(eventRootByHeight.get(line.height));
      ran += 1;
    });
  }
});
