/**
 * system_* over a real ChainStore (dev heights 0..3, finalized 1): node info in lisk-sdk's key
 * order, metadata and schemas byte-identical to the reference node's, and the metrics report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChainConfig } from '../../../src/config/lisk-config.js';
import { genesisInfoJSON, type NodeInfoSource } from '../../../src/rpc/endpoints/node-info.js';
import { NodeMetrics } from '../../../src/metrics/index.js';
import { createSystemEndpoints, type SystemEndpointsOptions } from '../../../src/rpc/endpoints/system-endpoints.js';
import { createMainchainModules } from '../../../src/modules/mainchain.js';
import type { StateReader } from '../../../src/state/state-view.js';
import { fixturePath, loadJsonFixture } from '../../support/fixtures.js';
import { devLines, dispatcherFor, tempChainStore, type TempChainStore } from './support.js';

const lines = devLines(4);
const config = loadChainConfig(fixturePath('chains/dev/config.json'));
const heights = { maxHeightPrevoted: 3, maxHeightPrecommitted: 1, maxHeightCertified: 0 };

function nodeInfo(overrides: Partial<NodeInfoSource> = {}): NodeInfoSource {
  let pool = 0;
  return {
    version: '0.1.0',
    networkVersion: '1.0',
    genesis: genesisInfoJSON(config.genesis, { fromFile: './genesis_block.blob' }),
    network: { version: '1.0', port: 7667, host: '127.0.0.1', seedPeers: [] },
    syncing: () => false,
    unconfirmedTransactions: () => {
      pool += 1;
      return pool;
    },
    ...overrides,
  };
}

describe('system endpoints', () => {
  let temp: TempChainStore;
  let options: SystemEndpointsOptions;

  beforeAll(() => {
    temp = tempChainStore(lines, 1);
    const modules = createMainchainModules({ genesisConfig: config.genesis, moduleConfigs: config.modules, withLegacy: false });
    options = {
      chainStore: temp.store,
      chainID: config.genesis.chainID,
      nodeInfo: nodeInfo(),
      modules: modules.list,
      metrics: new NodeMetrics(),
      bft: { getHeights: () => heights },
      engineState: () => ({}) as StateReader,
    };
  });

  afterAll(async () => {
    await temp?.close();
  });

  it('answers getNodeInfo in lisk-sdk key order, with live values and without undefined members', async () => {
    const call = dispatcherFor(createSystemEndpoints(options));
    const expected = {
      version: '0.1.0',
      networkVersion: '1.0',
      chainID: '04000000',
      lastBlockID: lines[3]?.id,
      height: 3,
      finalizedHeight: 1,
      syncing: false,
      unconfirmedTransactions: 1,
      genesisHeight: 0,
      genesis: {
        block: { fromFile: './genesis_block.blob' },
        blockTime: 3,
        bftBatchSize: 103,
        maxTransactionsSize: 15360,
        minimumCertifyHeight: 1,
        chainID: '04000000',
      },
      network: { version: '1.0', port: 7667, host: '127.0.0.1', seedPeers: [] },
    };
    expect((await call('system_getNodeInfo')).resultText).toBe(JSON.stringify(expected));
    // The pool size is read on every call.
    expect(((await call('system_getNodeInfo')).result as { unconfirmedTransactions: number }).unconfirmedTransactions).toBe(2);
  });

  it('lists the optional network members in lisk-sdk order when the config has them', async () => {
    const network = {
      whitelistedPeers: [{ ip: '10.0.0.3', port: 3 }],
      fixedPeers: [{ ip: '10.0.0.2', port: 2 }],
      blacklistedIPs: ['10.0.0.9'],
      seedPeers: [{ ip: '10.0.0.1', port: 1 }],
      port: 7000,
      version: '2.0',
    };
    const call = dispatcherFor(createSystemEndpoints({ ...options, nodeInfo: nodeInfo({ network, syncing: () => true }) }));
    const result = (await call('system_getNodeInfo')).result as { network: object; syncing: boolean };
    expect(result.syncing).toBe(true);
    expect(Object.keys(result.network)).toEqual(['version', 'port', 'seedPeers', 'blacklistedIPs', 'fixedPeers', 'whitelistedPeers']);
  });

  it('answers getMetadata byte-identical to the reference node for the dev chain modules, every time', async () => {
    const call = dispatcherFor(createSystemEndpoints(options));
    const reference = JSON.stringify(loadJsonFixture('chains/dev/metadata.json'));
    expect((await call('system_getMetadata')).resultText).toBe(reference);
    expect((await call('system_getMetadata')).resultText).toBe(reference);
  });

  it('answers getSchema byte-identical to the reference node', async () => {
    const call = dispatcherFor(createSystemEndpoints(options));
    expect((await call('system_getSchema')).resultText).toBe(JSON.stringify(loadJsonFixture('chains/dev/schema.json')));
  });

  it('serves getMetricsReport only to allowed callers, as prom-client JSON or Prometheus text', async () => {
    const methods = createSystemEndpoints(options);
    expect(methods.find((m) => m.name === 'getMetricsReport')?.sensitive).toBe(true);
    expect(methods.filter((m) => m.name !== 'getMetricsReport').every((m) => m.sensitive !== true)).toBe(true);
    expect((await dispatcherFor(methods)('system_getMetricsReport')).error?.code).toBe(-32002);

    options.metrics?.recordBlock(7);
    const call = dispatcherFor(methods, ['system']);
    type Family = { name: string; type: string; values: { value: number }[]; aggregator: string };
    const report = (await call('system_getMetricsReport')).result as Family[];
    const names = report.map((family) => family.name);
    // lisk-sdk's consensus gauges first, as lisk-sdk's own report has them, then Basalt's.
    expect(names.slice(0, 5)).toEqual([
      'consensus_height',
      'consensus_finalizedHeight',
      'consensus_maxHeightPrevoted',
      'consensus_maxHeightPrecommitted',
      'consensus_maxHeightCertified',
    ]);
    expect(names).toEqual(
      expect.arrayContaining([
        'basalt_blocks_processed_total',
        'basalt_transactions_processed_total',
        'basalt_blocks_reverted_total',
        'basalt_rpc_requests_total',
      ]),
    );
    const firstValue = (name: string) => report.find((family) => family.name === name)?.values[0]?.value;
    expect(names.slice(0, 5).map(firstValue)).toEqual([3, 1, 3, 1, 0]);
    expect(firstValue('basalt_blocks_processed_total')).toBe(1);
    expect(firstValue('basalt_transactions_processed_total')).toBe(7);
    expect(report[0]).toEqual({
      help: 'Height of the tip',
      name: 'consensus_height',
      type: 'gauge',
      values: [{ value: 3, labels: {} }],
      aggregator: 'sum',
    });
    const text = (await call('system_getMetricsReport', { inString: true })).result as string;
    expect(text.startsWith('# HELP consensus_height Height of the tip\n# TYPE consensus_height gauge\nconsensus_height 3\n\n')).toBe(true);
    expect((await call('system_getMetricsReport', { inString: 'yes' })).error?.code).toBe(-32602);
  });

  it('does not register getMetricsReport without metrics', () => {
    const names = createSystemEndpoints({ ...options, metrics: undefined }).map((m) => m.name);
    expect(names).toEqual(['getNodeInfo', 'getMetadata', 'getSchema']);
  });
});
