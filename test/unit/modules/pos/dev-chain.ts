/**
 * Access to the real lisk-sdk 6.1 chain test/fixtures/chains/dev for the pos tests: its
 * config, genesis assets (as the genesis block carries them), token balances, BFT parameters,
 * blocks, events and the state and RPC answers at the tip.
 */
import { readFileSync } from 'node:fs';
import { codec, type Schema } from '../../../../src/codec/index.js';
import { decodeLisk32 } from '../../../../src/crypto/index.js';
import { fixturePath, hex, loadJsonFixture } from '../../../support/fixtures.js';

export interface DevConfig {
  genesis: { blockTime: number; bftBatchSize: number; chainID: string };
  modules: Record<string, Record<string, unknown>>;
}

export const devConfig = loadJsonFixture<DevConfig>('chains/dev/config.json');

interface AssetEntry {
  module: string;
  data: Record<string, unknown>;
  schema: Schema;
}

export const devGenesisAssets = loadJsonFixture<{ assets: AssetEntry[] }>('chains/dev/genesis_assets.json').assets;

export function genesisAssetEntry(module: string): AssetEntry {
  const entry = devGenesisAssets.find((asset) => asset.module === module);
  if (entry === undefined) throw new Error(`no ${module} genesis asset`);
  return entry;
}

/** A deep copy of the pos genesis asset's JSON data, to modify in error tests. */
export function posGenesisJSON(): {
  validators: Record<string, unknown>[];
  stakers: { address: string; stakes: Record<string, unknown>[]; pendingUnlocks: Record<string, unknown>[] }[];
  genesisData: { initRounds: number; initValidators: string[] };
} {
  return JSON.parse(JSON.stringify(genesisAssetEntry('pos').data));
}

export function encodePosGenesis(data: object): Buffer {
  const { schema } = genesisAssetEntry('pos');
  return codec.encode(schema, codec.fromJSON(schema, data));
}

export interface BlockLine {
  height: number;
  id: string;
  blockHex: string;
  blockJson: {
    header: Record<string, unknown> & { height: number; timestamp: number; generatorAddress: string };
    transactions: (Record<string, unknown> & { id: string; module: string; command: string })[];
    assets: { module: string; data: string }[];
  };
}

export interface EventJSON {
  module: string;
  name: string;
  data: string;
  topics: string[];
  index: number;
  height: number;
}

function readLines<T>(file: string): T[] {
  return readFileSync(fixturePath(file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

let blocksCache: BlockLine[] | undefined;
export function devBlocks(): BlockLine[] {
  blocksCache ??= readLines<BlockLine>('chains/dev/blocks.ndjson');
  return blocksCache;
}

let eventsCache: Map<number, EventJSON[]> | undefined;
export function devEvents(): Map<number, EventJSON[]> {
  eventsCache ??= new Map(readLines<{ height: number; events: EventJSON[] }>('chains/dev/events.ndjson').map((l) => [l.height, l.events]));
  return eventsCache;
}

/** The genesis block's pos asset bytes, exactly as lisk-sdk put them in the block. */
export function genesisPosAssetBytes(): Buffer {
  const asset = devBlocks()[0]?.blockJson.assets.find((entry) => entry.module === 'pos');
  if (asset === undefined) throw new Error('genesis block has no pos asset');
  return hex(asset.data);
}

export interface BftParametersRange {
  fromHeight: number;
  toHeight: number;
  params: {
    validators: { address: string; bftWeight: string; blsKey: string }[];
    precommitThreshold: string;
    certificateThreshold: string;
    validatorsHash: string;
  };
}

export const devBftParameters = loadJsonFixture<BftParametersRange[]>('chains/dev/bft_parameters.json');

/** Token user accounts of the genesis token asset: address, available and locked balances. */
export function genesisTokenAccounts(): {
  address: Buffer;
  tokenID: Buffer;
  availableBalance: bigint;
  lockedBalances: { module: string; amount: bigint }[];
}[] {
  const users = genesisAssetEntry('token').data.userSubstore as {
    address: string;
    tokenID: string;
    availableBalance: string;
    lockedBalances: { module: string; amount: string }[];
  }[];
  return users.map((user) => ({
    address: decodeLisk32(user.address),
    tokenID: hex(user.tokenID),
    availableBalance: BigInt(user.availableBalance),
    lockedBalances: user.lockedBalances.map((locked) => ({ module: locked.module, amount: BigInt(locked.amount) })),
  }));
}

export const finalStateKV = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json').entries;

export interface RpcAnswer {
  method: string;
  params: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

export const finalState = loadJsonFixture<{
  tip: { height: number };
  addresses: string[];
  perAddress: Record<string, RpcAnswer[]>;
  global: RpcAnswer[];
}>('chains/dev/final_state.json');
