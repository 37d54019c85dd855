/**
 * The `legacy` RPC namespace over a store holding a synthetic v3 chain, through the dispatcher:
 * the JSON text of blocks and transactions, lisk-sdk's params checks and not-found messages.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importLegacyBlocks,
  initLegacyBrackets,
  legacyBracket,
  LegacyChainStore,
  legacyTransactionId,
  type V3BlockSource,
} from '../../../src/legacy-chain/index.js';
import { silentLogger } from '../../../src/logger.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { createLegacyEndpoints } from '../../../src/rpc/endpoints/legacy-endpoints.js';
import { RpcRegistry } from '../../../src/rpc/registry.js';
import { buildV3Chain, V3_GENERATOR_PUBLIC_KEY, V3_SENDER_PUBLIC_KEY } from '../../support/v3-legacy-chain.js';

const chain = buildV3Chain({ length: 12, transactionsAt: (height) => (height === 5 ? 2 : 0) });
const top = chain.at(-1) as V3BlockSource;
const block5 = chain[5] as V3BlockSource;
const bracket = legacyBracket({ id: top.id, height: top.height }, 0);
const pending = { startHeight: 100, snapshotHeight: 200, snapshotBlockID: 'ab'.repeat(32) };

let dir: string;
let env: RootDatabase;
let dispatcher: RpcDispatcher;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'basalt-legacy-rpc-'));
  env = open({ path: join(dir, 'basalt.lmdb'), maxDbs: 8 });
  const store = new LegacyChainStore(env);
  await importLegacyBlocks(store, chain, bracket);
  initLegacyBrackets(store, [bracket, pending]);
  const registry = new RpcRegistry();
  for (const method of createLegacyEndpoints({ store, brackets: [bracket, pending] })) registry.register(method);
  dispatcher = new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger });
});

afterAll(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, params: unknown): Promise<Record<string, unknown>> {
  return JSON.parse((await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as string);
}

const hex = (bytes: Buffer): string => bytes.toString('hex');
/** The key of lisk-sdk's legacy database, as its not-found error shows it. */
const keyHex = (prefix: string, bytes: Buffer): string => hex(Buffer.from(`${prefix}:${bytes.toString('binary')}`));

describe('legacy_getBlockByID / legacy_getBlockByHeight', () => {
  it('answers the header fields in schema order, then id, and the transactions as hex', async () => {
    const previous = chain[4] as V3BlockSource;
    const expected = {
      header: {
        version: 2,
        timestamp: 1_600_000_050,
        height: 5,
        previousBlockID: hex(previous.id),
        transactionRoot: expect.any(String),
        generatorPublicKey: hex(V3_GENERATOR_PUBLIC_KEY),
        reward: '500000000',
        asset: '080510001a00',
        signature: expect.stringMatching(/^[0-9a-f]{128}$/),
        id: hex(block5.id),
      },
      payload: block5.transactions.map(hex),
    };
    const byId = await call('legacy_getBlockByID', { id: hex(block5.id) });
    expect(byId.result).toEqual(expected);
    expect(Object.keys((byId.result as { header: object }).header)).toEqual([
      'version',
      'timestamp',
      'height',
      'previousBlockID',
      'transactionRoot',
      'generatorPublicKey',
      'reward',
      'asset',
      'signature',
      'id',
    ]);
    expect((await call('legacy_getBlockByHeight', { height: 5 })).result).toEqual(byId.result);
    // A fraction is truncated, as lisk-sdk's key write truncates it.
    expect((await call('legacy_getBlockByHeight', { height: 5.7 })).result).toEqual(byId.result);
  });

  it('shows the genesis block with its empty fields', async () => {
    const genesis = (await call('legacy_getBlockByHeight', { height: 0 })).result as {
      header: Record<string, unknown>;
      payload: unknown[];
    };
    expect(genesis.header).toMatchObject({
      version: 0,
      height: 0,
      previousBlockID: '',
      generatorPublicKey: '',
      signature: '',
      id: hex((chain[0] as V3BlockSource).id),
    });
    expect(genesis.payload).toEqual([]);
  });

  it("refuses bad params with lisk-sdk's messages and reports unknown blocks by their database key", async () => {
    expect((await call('legacy_getBlockByID', { id: 'xyz' })).error).toEqual({
      code: -32602,
      message: 'Invalid parameters. `id` must be a valid hex string.',
    });
    expect((await call('legacy_getBlockByID', { id: 'abc' })).error).toMatchObject({ code: -32602 });
    expect((await call('legacy_getBlockByID', {})).error).toMatchObject({ code: -32602 });
    const unknown = Buffer.alloc(32, 0xc4);
    expect((await call('legacy_getBlockByID', { id: hex(unknown) })).error).toEqual({
      code: -32001,
      message: `Specified key ${keyHex('blocks:id', unknown)} does not exist`,
    });
    expect((await call('legacy_getBlockByHeight', { height: -1 })).error).toEqual({
      code: -32602,
      message: 'Invalid parameters. `height` must be zero or a positive number.',
    });
    expect((await call('legacy_getBlockByHeight', { height: '5' })).error).toMatchObject({ code: -32602 });
    expect((await call('legacy_getBlockByHeight', { height: 2 ** 32 })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('The value of "value" is out of range.'),
    });
    expect((await call('legacy_getBlockByHeight', { height: 200 })).error).toEqual({
      code: -32001,
      message: 'Specified key 626c6f636b733a6865696768743a000000c388 does not exist',
    });
  });
});

describe('legacy_getTransactionByID / legacy_getTransactionsByBlockID', () => {
  it('answers v3 transactions with their id last', async () => {
    const [first] = block5.transactions as Buffer[];
    const { result } = await call('legacy_getTransactionByID', { id: hex(legacyTransactionId(first as Buffer)) });
    expect(result).toEqual({
      moduleID: 2,
      assetID: 0,
      nonce: '1',
      fee: '10000000',
      senderPublicKey: hex(V3_SENDER_PUBLIC_KEY),
      asset: '0802',
      signatures: [expect.stringMatching(/^[0-9a-f]{128}$/)],
      id: hex(legacyTransactionId(first as Buffer)),
    });
    const list = (await call('legacy_getTransactionsByBlockID', { id: hex(block5.id) })).result as { id: string; nonce: string }[];
    expect(list.map((tx) => tx.nonce)).toEqual(['1', '2']);
    expect((await call('legacy_getTransactionsByBlockID', { id: hex((chain[3] as V3BlockSource).id) })).result).toEqual([]);
  });

  it('reports unknown IDs by their database key', async () => {
    const unknown = Buffer.alloc(32, 0x01);
    expect((await call('legacy_getTransactionByID', { id: hex(unknown) })).error).toEqual({
      code: -32001,
      message: `Specified key ${keyHex('transactions:id', unknown)} does not exist`,
    });
    expect((await call('legacy_getTransactionsByBlockID', { id: hex(unknown) })).error).toEqual({
      code: -32001,
      message: `Specified key ${keyHex('transactions:blockID', unknown)} does not exist`,
    });
    expect((await call('legacy_getTransactionByID', { id: 5 })).error).toEqual({
      code: -32602,
      message: 'Invalid parameters. `id` must be a valid hex string.',
    });
  });
});

describe('legacy_getLegacyBrackets', () => {
  it('lists the configured brackets with their stored state', async () => {
    expect((await call('legacy_getLegacyBrackets', {})).result).toEqual([
      { startHeight: 0, snapshotBlockHeight: 11, lastBlockHeight: 0, snapshotBlockID: hex(top.id) },
      { startHeight: 100, snapshotBlockHeight: 200, lastBlockHeight: 200, snapshotBlockID: 'ab'.repeat(32) },
    ]);
  });
});
