/**
 * buildRegistry over a real opened chain (the dev genesis block executed into a temporary store):
 * every engine and module method is registered once with the right sensitivity, the events are
 * declared, extra methods join, calls are counted, and the app namespace lists what is there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_EVENTS, NODE_EVENTS } from '../../../src/rpc/endpoints/engine-events.js';
import { genesisInfoJSON, type NodeInfoSource } from '../../../src/rpc/endpoints/node-info.js';
import { NodeMetrics } from '../../../src/rpc/endpoints/node-metrics.js';
import { openChain, type OpenChain } from '../../../src/node.js';
import { buildRegistry, type BuildRegistryOptions } from '../../../src/rpc/registry-builder.js';
import { devChainConfig, devGenesisBlock } from '../../support/dev-chain.js';
import { seedDevGenesis } from '../../support/dev-genesis-store.js';
import { EMPTY_HASH } from '../../../src/merkle/index.js';
import { dispatcherFor } from './support.js';

const ENGINE_METHODS = [
  'app_getRegisteredActions',
  'app_getRegisteredEndpoints',
  'app_getRegisteredEvents',
  'chain_areHeadersContradicting',
  'chain_getAssetsByHeight',
  'chain_getBlockByHeight',
  'chain_getBlockByID',
  'chain_getBlocksByHeightBetween',
  'chain_getBlocksByIDs',
  'chain_getEvents',
  'chain_getGeneratorList',
  'chain_getLastBlock',
  'chain_getTransactionByID',
  'chain_getTransactionsByHeight',
  'chain_getTransactionsByIDs',
  'chain_proveEvents',
  'consensus_getBFTHeights',
  'consensus_getBFTParameters',
  'consensus_getBFTParametersActiveValidators',
  'state_prove',
  'system_getMetadata',
  'system_getMetricsReport',
  'system_getNodeInfo',
  'system_getSchema',
];

const SENSITIVE = [
  'random_getHashOnionSeeds',
  'random_getHashOnionUsage',
  'random_hasHashOnion',
  'random_setHashOnion',
  'random_setHashOnionUsage',
  'system_getMetricsReport',
];

describe('buildRegistry', () => {
  const config = devChainConfig();
  let dataPath: string;
  let chain: OpenChain;
  let base: BuildRegistryOptions;

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-registry-builder-'));
    await seedDevGenesis(dataPath);
    chain = await openChain({ dataPath, config, genesisBlock: devGenesisBlock() });
    const nodeInfo: NodeInfoSource = {
      version: '0.1.0',
      networkVersion: '1.0',
      genesis: genesisInfoJSON(config.genesis, { fromFile: './genesis_block.blob' }),
      network: { version: '1.0', port: 7667, seedPeers: [] },
      syncing: () => false,
      unconfirmedTransactions: () => 0,
    };
    base = {
      chain,
      chainID: config.genesis.chainID,
      nodeInfo,
      metrics: new NodeMetrics(),
      stateProver: { prove: () => ({ queries: [], siblingHashes: [] }), root: () => EMPTY_HASH, treeShareId: () => undefined },
    };
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('registers every engine method and every endpoint of every module, once', () => {
    const { registry } = buildRegistry(base);
    const moduleMethods = chain.modules.list.flatMap((module) => Object.keys(module.endpoints).map((name) => `${module.name}_${name}`));
    expect(moduleMethods).toHaveLength(53);
    expect(registry.methodNames()).toEqual([...ENGINE_METHODS, ...moduleMethods].sort());
    for (const name of registry.methodNames()) {
      expect(registry.get(name)?.sensitive === true, name).toBe(SENSITIVE.includes(name));
    }
  });

  it('declares the node events, or the ones it is given', () => {
    expect(buildRegistry(base).registry.eventNames()).toEqual([...NODE_EVENTS].sort());
    const withNetwork = buildRegistry({ ...base, events: [...NODE_EVENTS, ...NETWORK_EVENTS] });
    expect(withNetwork.registry.eventNames()).toContain('network_newBlock');
  });

  it('adds extra methods, refuses duplicates, and leaves out state_prove and the metrics report without their sources', () => {
    const extra = buildRegistry({ ...base, extraMethods: [{ namespace: 'txpool', name: 'getTransactionsFromPool', invoke: () => [] }] });
    expect(extra.registry.get('txpool_getTransactionsFromPool')).toBeDefined();
    expect(() => buildRegistry({ ...base, extraMethods: [{ namespace: 'chain', name: 'getLastBlock', invoke: () => 1 }] })).toThrow(
      'RPC method chain_getLastBlock is already registered.',
    );
    const bare = buildRegistry({ ...base, stateProver: undefined, metrics: undefined }).registry;
    expect(bare.get('state_prove')).toBeUndefined();
    expect(bare.get('system_getMetricsReport')).toBeUndefined();
  });

  it('serves module, consensus and app methods through the dispatcher with their codes', async () => {
    const { registry } = buildRegistry(base);
    const methods = registry.methodNames().map((name) => registry.get(name)!);
    const call = dispatcherFor(methods, ['system']);
    expect((await call('fee_getMinFeePerByte')).result).toEqual({ minFeePerByte: 1000 });
    expect((await call('pos_getStaker', { address: 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596' })).error).toEqual({
      code: -32001,
      message: 'Key 7160f86800000000000000000000000000000000000000000000 does not exist.',
    });
    expect((await call('consensus_getBFTParameters', { height: 2 ** 32 })).error?.code).toBe(-32602);
    const heights = { maxHeightPrevoted: 0, maxHeightPrecommitted: 0, maxHeightCertified: 0 };
    expect((await call('consensus_getBFTHeights')).result).toEqual(heights);
    expect((await call('chain_getLastBlock')).result).toMatchObject({ header: { height: 0 } });
    expect((await call('app_getRegisteredEndpoints')).result).toEqual(registry.methodNames());
    expect((await call('app_getRegisteredActions')).result).toEqual(registry.methodNames());
    expect((await call('app_getRegisteredEvents')).result).toEqual(registry.eventNames());
    expect((await call('random_getHashOnionSeeds')).error?.code).toBe(-32002);
  });

  it('counts calls per method when given metrics', async () => {
    const metrics = new NodeMetrics();
    const { registry } = buildRegistry({ ...base, metrics });
    const call = dispatcherFor(registry.methodNames().map((name) => registry.get(name)!));
    await call('chain_getLastBlock');
    await call('chain_getLastBlock');
    await call('fee_getFeeTokenID');
    await call('chain_getBlockByHeight', { height: -1 }); // refused before the method runs
    const rpc = metrics.families().find((family) => family.name === 'basalt_rpc_requests_total');
    const count = (method: string) => rpc?.values.find((sample) => sample.labels.method === method)?.value;
    expect(count('chain_getLastBlock')).toBe(2);
    expect(count('fee_getFeeTokenID')).toBe(1);
    expect(count('chain_getBlockByHeight')).toBe(0);
  });
});
