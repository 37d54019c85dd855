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
import { NodeMetrics } from '../../../src/metrics/index.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { silentLogger } from '../../../src/logger.js';
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

  it('counts requests and errors per method and transport through the dispatcher, with unknown names under one label', async () => {
    const metrics = new NodeMetrics();
    const { registry } = buildRegistry({ ...base, metrics });
    const dispatcher = new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger, observer: metrics });
    const http = dispatcher.forTransport('http');
    const ws = dispatcher.forTransport('ws');
    const send = async (to: typeof http, method: string, params: unknown = {}) =>
      to.dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    await send(http, 'chain_getLastBlock');
    await send(http, 'chain_getLastBlock');
    await send(ws, 'chain_getLastBlock');
    await send(http, 'fee_getFeeTokenID');
    await send(http, 'chain_getBlockByHeight', { height: -1 }); // refused by its params schema
    await send(http, 'random_getHashOnionSeeds'); // sensitive, not allowed
    await send(http, 'no_suchMethod');
    await send(http, 'another_unknownOne');
    await http.dispatch('{not json');
    // The plain dispatcher (tests, tools) counts nothing.
    await dispatcher.dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain_getLastBlock' }));

    const report = (await metrics.report(false)) as { name: string; values: { value: number; labels: Record<string, string> }[] }[];
    const count = (name: string, method: string, transport = 'http') =>
      report
        .find((family) => family.name === name)
        ?.values.find((sample) => sample.labels.method === method && sample.labels.transport === transport)?.value;
    expect(count('basalt_rpc_requests_total', 'chain_getLastBlock')).toBe(2);
    expect(count('basalt_rpc_requests_total', 'chain_getLastBlock', 'ws')).toBe(1);
    expect(count('basalt_rpc_errors_total', 'chain_getLastBlock')).toBe(0);
    expect(count('basalt_rpc_requests_total', 'fee_getFeeTokenID')).toBe(1);
    expect(count('basalt_rpc_errors_total', 'chain_getBlockByHeight')).toBe(1);
    expect(count('basalt_rpc_errors_total', 'random_getHashOnionSeeds')).toBe(1);
    expect(count('basalt_rpc_requests_total', '(unknown)')).toBe(2);
    expect(count('basalt_rpc_errors_total', '(unknown)')).toBe(2);
    expect(count('basalt_rpc_errors_total', '(invalid)')).toBe(1);
    const latency = report.find((family) => family.name === 'basalt_rpc_request_duration_seconds');
    const latencyCount = (transport: string) =>
      latency?.values.find(
        (sample) => sample.labels.transport === transport && (sample as { metricName?: string }).metricName?.endsWith('_count'),
      )?.value;
    expect(latencyCount('http')).toBe(8);
    expect(latencyCount('ws')).toBe(1);
  });
});
